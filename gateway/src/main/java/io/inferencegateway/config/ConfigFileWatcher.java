package io.inferencegateway.config;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Function;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Re-applies the config file whenever its content changes: the config's reader on a {@link MountedFileWatcher}, which
 * sees a Kubernetes ConfigMap's symlink swap and hands over each new content once. An invalid config is logged as one
 * line that names the file and the path in the document, and the running config stays.
 */
public final class ConfigFileWatcher implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ConfigFileWatcher.class);

    private final Path file;
    private final Function<GatewayConfig, ?> apply;
    private final MountedFileWatcher watcher;

    private ConfigFileWatcher(Path file, Function<GatewayConfig, ?> apply) {
        this.file = file.toAbsolutePath();
        this.apply = apply;
        this.watcher = MountedFileWatcher.start(file, "config file", readOrNull(file), this::read);
    }

    /**
     * Watches {@code file} and hands every valid new content to {@code apply} (whose result, if any, is
     * logged as what changed). The content present now counts as applied.
     */
    public static ConfigFileWatcher start(Path file, Function<GatewayConfig, ?> apply) {
        return new ConfigFileWatcher(file, apply);
    }

    /** Reads the file and applies it if its content changed since the last look. */
    void check() {
        watcher.check();
    }

    private void read(byte[] bytes) {
        GatewayConfig next;
        try {
            next = ConfigLoader.parse(new ByteArrayInputStream(bytes));
        } catch (InvalidConfigException e) {
            LOG.warn("rejected config {}: {}; still running the previous config", file, e.getMessage());
            return;
        }
        try {
            Object changes = apply.apply(next);
            LOG.info("applied config {}{}", file, changes == null ? "" : ": " + changes);
        } catch (IllegalArgumentException e) { // what it names cannot be used, e.g. an unreadable secret file
            LOG.warn("rejected config {}: {}; still running the previous config", file, e.getMessage());
        } catch (RuntimeException e) {
            LOG.error("applying config {} failed", file, e);
        }
    }

    private static byte[] readOrNull(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            return null;
        }
    }

    @Override
    public void close() {
        watcher.close();
    }
}
