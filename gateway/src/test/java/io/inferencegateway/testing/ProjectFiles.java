package io.inferencegateway.testing;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Files at the top of the repository that tests check: the routes, the Kamelets, the manifests, the monitoring rules
 * and the docs. Tests run in their module's directory; the top is the nearest directory above it that holds
 * {@code routes/} and {@code kamelets/}.
 */
public final class ProjectFiles {

    /** The repository's top directory. */
    public static final Path ROOT = top();

    private ProjectFiles() {
    }

    /** A file or directory by its path from the top of the repository, e.g. {@code of("routes")}. */
    public static Path of(String first, String... more) {
        return ROOT.resolve(Path.of(first, more));
    }

    private static Path top() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isDirectory(dir.resolve("routes")) && Files.isDirectory(dir.resolve("kamelets"))) {
                return dir;
            }
        }
        throw new IllegalStateException("no directory above " + Path.of("").toAbsolutePath()
                + " holds routes/ and kamelets/");
    }
}
