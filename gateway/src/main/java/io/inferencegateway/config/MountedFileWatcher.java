package io.inferencegateway.config;

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
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands a mounted file's content to a reader each time it changes, on a thread of its own: the gateway's one file
 * watcher, behind the hot reload of its config ({@link ConfigFileWatcher}) and of its API keys (auth/ApiKeys).
 *
 * <p>It watches the file's directory, not the file: Kubernetes updates a mounted ConfigMap or Secret by writing a new
 * timestamped directory and renaming a {@code ..data} symlink onto it, so the file (a symlink through {@code ..data})
 * never changes itself. A burst of events (that swap, an editor's save) is read once, after it settles, and the
 * reader hears only content whose digest changed. A file that cannot be read is logged and the reader keeps what it
 * has. A {@code subPath} mount never sees updates at all: mount the whole volume as a directory.
 *
 * <p>One watch service and thread per watched file, not one for all: the config and the key file usually sit in
 * different mounts (a ConfigMap, a Secret), so a shared one would still watch two directories and save only two
 * parked threads (this one and, on Linux, the JDK's inotify reader), while tying together watchers that live apart
 * (the keys' watcher is replaced by a reload that changes {@code spec.auth}, the config's lives as long as the
 * gateway) and making a key rotation wait behind a slow config reload.
 */
public final class MountedFileWatcher implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(MountedFileWatcher.class);
    private static final long SETTLE_MILLIS = 100;

    private final Path file;
    private final String what;
    private final Consumer<byte[]> reader;
    private final WatchService watchService;
    private final Thread thread;
    private byte[] lastDigest;
    private volatile boolean closed;

    private MountedFileWatcher(Path file, String what, byte[] current, Consumer<byte[]> reader) throws IOException {
        this.file = file.toAbsolutePath();
        this.what = what;
        this.reader = reader;
        this.lastDigest = current == null ? null : sha256(current);
        this.watchService = FileSystems.getDefault().newWatchService();
        this.file.getParent().register(watchService, StandardWatchEventKinds.ENTRY_CREATE,
                StandardWatchEventKinds.ENTRY_MODIFY, StandardWatchEventKinds.ENTRY_DELETE);
        this.thread = new Thread(this::run, "file-watch-" + this.file.getFileName());
        this.thread.setDaemon(true);
    }

    /**
     * Watches {@code file} and hands {@code reader} every content that differs from the last one it had.
     *
     * @param what    the file's part, for the log ({@code "config file"})
     * @param current the content the reader has already read, or null when it has none
     * @param reader  takes the new content; what it throws is logged and the next change is read all the same
     */
    public static MountedFileWatcher start(Path file, String what, byte[] current, Consumer<byte[]> reader) {
        try {
            MountedFileWatcher watcher = new MountedFileWatcher(file, what, current, reader);
            watcher.thread.start();
            watcher.check(); // a change between the caller's read and the watch registration is not lost
            return watcher;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot watch " + what + " " + file, e);
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
                    LOG.warn("the directory of {} {} is gone; its changes are no longer read", what, file);
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

    /** Reads the file and hands it to the reader if its content changed since the last look. */
    synchronized void check() {
        if (closed) {
            return;
        }
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            if (lastDigest != null) {
                LOG.warn("{} {} is gone; what was read before stays", what, file);
                lastDigest = null;
            }
            return;
        } catch (IOException e) {
            LOG.warn("cannot read {} {}: {}; what was read before stays", what, file, e.toString());
            return;
        }
        byte[] digest = sha256(bytes);
        if (Arrays.equals(digest, lastDigest)) {
            return;
        }
        lastDigest = digest; // a content the reader refuses is told once, not on every event
        try {
            reader.accept(bytes);
        } catch (RuntimeException e) {
            LOG.error("reading {} {} failed", what, file, e);
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
