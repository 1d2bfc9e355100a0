package io.inferencegateway.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * A ConfigMap volume laid out the way the kubelet writes it: the data lives in a timestamped directory,
 * {@code ..data} is a symlink to it and each key is a symlink through {@code ..data}. An update writes a new
 * directory, points {@code ..data_tmp} at it, renames that onto {@code ..data} (one atomic step) and deletes
 * the old directory; the key's own symlink never changes.
 */
public final class ConfigMapVolume {

    private final Path dir;
    private final String key;
    private Path current;
    private int generation;

    private ConfigMapVolume(Path dir, String key) {
        this.dir = dir;
        this.key = key;
    }

    public static ConfigMapVolume create(Path dir, String key, String content) throws IOException {
        ConfigMapVolume volume = new ConfigMapVolume(dir, key);
        volume.current = volume.writeGeneration(content);
        Files.createSymbolicLink(dir.resolve("..data"), volume.current.getFileName());
        Files.createSymbolicLink(dir.resolve(key), Path.of("..data", key));
        return volume;
    }

    /** The path an application is given: {@code <mount>/<key>}. */
    public Path file() {
        return dir.resolve(key);
    }

    public void update(String content) throws IOException {
        Path next = writeGeneration(content);
        Path tmp = dir.resolve("..data_tmp");
        Files.createSymbolicLink(tmp, next.getFileName());
        Files.move(tmp, dir.resolve("..data"), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        deleteTree(current);
        current = next;
    }

    private Path writeGeneration(String content) throws IOException {
        Path generationDir = dir.resolve("..2026_01_01_00_00_0" + (generation++) + ".12345");
        Files.createDirectories(generationDir);
        Files.writeString(generationDir.resolve(key), content);
        return generationDir;
    }

    private static void deleteTree(Path root) throws IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
