package io.inferencegateway.config;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Re-applies the config file whenever its content changes, on a thread of its own.
 *
 * <p>It watches the file's directory, not the file: Kubernetes updates a mounted ConfigMap by writing a new
 * timestamped directory and renaming a {@code ..data} symlink onto it, so the file (a symlink through
 * {@code ..data}) never changes itself. A burst of events (that swap, an editor's save) is read once, after
 * it settles; the content is parsed only when its digest changed; an invalid config is logged as one line
 * that names the file and the path in the document, and the running config stays. A {@code subPath} mount
 * never sees ConfigMap updates at all: mount the whole ConfigMap as a directory.
 */
public final class ConfigFileWatcher implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ConfigFileWatcher.class);
    private static final long SETTLE_MILLIS = 100;

    private final Path file;
    private final Function<GatewayConfig, ?> apply;
    private final WatchService watchService;
    private final Thread thread;
    private byte[] lastDigest;
    private volatile boolean closed;

    private ConfigFileWatcher(Path file, Function<GatewayConfig, ?> apply) throws IOException {
        this.file = file.toAbsolutePath();
        this.apply = apply;
        this.lastDigest = digestOrNull();
        this.watchService = FileSystems.getDefault().newWatchService();
        this.file.getParent().register(watchService, StandardWatchEventKinds.ENTRY_CREATE,
                StandardWatchEventKinds.ENTRY_MODIFY, StandardWatchEventKinds.ENTRY_DELETE);
        this.thread = new Thread(this::run, "config-watch");
        this.thread.setDaemon(true);
    }

    /**
     * Watches {@code file} and hands every valid new content to {@code apply} (whose result, if any, is
     * logged as what changed). The content present now counts as applied.
     */
    public static ConfigFileWatcher start(Path file, Function<GatewayConfig, ?> apply) {
        try {
            ConfigFileWatcher watcher = new ConfigFileWatcher(file, apply);
            watcher.thread.start();
            watcher.check(); // a change between the first load and the watch registration is not lost
            return watcher;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot watch config file " + file, e);
        }
    }

    private void run() {
        try {
            while (!closed) {
                WatchKey key = watchService.take();
                boolean valid = drain(key);
                // let the burst settle: kubelet's swap is several events, an editor's save may be two writes
                for (WatchKey more = watchService.poll(SETTLE_MILLIS, TimeUnit.MILLISECONDS); more != null;
                        more = watchService.poll(SETTLE_MILLIS, TimeUnit.MILLISECONDS)) {
                    valid &= drain(more);
                }
                check();
                if (!valid) {
                    LOG.warn("config directory {} is gone; config changes are no longer applied", file.getParent());
                    return;
                }
            }
        } catch (InterruptedException | ClosedWatchServiceException e) {
            // closed
        }
    }

    private static boolean drain(WatchKey key) {
        key.pollEvents();
        return key.reset();
    }

    /** Reads the file and applies it if its content changed since the last look. */
    synchronized void check() {
        if (closed) {
            return;
        }
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            if (lastDigest != null) {
                LOG.warn("config file {} is gone; still running the previous config", file);
                lastDigest = null;
            }
            return;
        } catch (IOException e) {
            LOG.warn("cannot read config file {}: {}; still running the previous config", file, e.getMessage());
            return;
        }
        byte[] digest = sha256(bytes);
        if (Arrays.equals(digest, lastDigest)) {
            return;
        }
        lastDigest = digest;
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
        } catch (RuntimeException e) {
            LOG.error("applying config {} failed", file, e);
        }
    }

    private byte[] digestOrNull() {
        try {
            return sha256(Files.readAllBytes(file));
        } catch (IOException e) {
            return null;
        }
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    @Override
    public void close() {
        closed = true;
        try {
            watchService.close();
        } catch (IOException e) {
            // nothing to do
        }
        thread.interrupt();
    }
}
