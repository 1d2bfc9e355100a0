package io.inferencegateway.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A secret of one line in a mounted file (a provider's API key, the clusters' bearer token), read now and again each
 * time the file changes ({@link MountedFileWatcher}), so that a rotated Secret takes effect without a restart. A
 * changed file that is empty is logged and the previous value kept.
 */
public final class SecretFile implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SecretFile.class);

    private final Path file;
    private final String what;
    private final MountedFileWatcher watcher;
    private volatile String value;

    private SecretFile(Path file, String what, byte[] content) {
        this.file = file;
        this.what = what;
        this.value = line(content);
        this.watcher = MountedFileWatcher.start(file, what, content, this::reread);
    }

    /** Reads {@code file} now (it must hold a non-empty line) and watches it from then on. */
    public static SecretFile watch(Path file, String what) {
        byte[] content;
        try {
            content = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + what + " " + file + ": " + e.getMessage());
        }
        if (line(content).isEmpty()) {
            throw new IllegalArgumentException(what + " " + file + " is empty");
        }
        return new SecretFile(file, what, content);
    }

    /** The secret as last read. */
    public String value() {
        return value;
    }

    public Path file() {
        return file;
    }

    private void reread(byte[] content) {
        String v = line(content);
        if (v.isEmpty()) {
            LOG.warn("{} {} is empty now; the previous value stays in use", what, file);
            return;
        }
        value = v;
        LOG.info("{} re-read from {}", what, file);
    }

    private static String line(byte[] content) {
        String text = new String(content, StandardCharsets.UTF_8).strip();
        int eol = text.indexOf('\n');
        return eol < 0 ? text : text.substring(0, eol).strip();
    }

    @Override
    public void close() {
        watcher.close();
    }
}
