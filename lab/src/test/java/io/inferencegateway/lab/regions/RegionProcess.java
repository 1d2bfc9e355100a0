package io.inferencegateway.lab.regions;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

import org.awaitility.core.ConditionTimeoutException;
import org.awaitility.core.TerminalFailureException;

/**
 * A process started inside a {@link RegionNamespace} ({@code ip netns exec} replaces itself with the command, so this
 * is the command's own process), its output, stdout and stderr together, in a log file that outlives the run.
 */
public final class RegionProcess {

    /** How long a SIGTERM is given before SIGKILL. */
    static final Duration STOP_GRACE = Duration.ofSeconds(10);
    private static final Duration POLL = Duration.ofMillis(50);

    private final String label;
    private final Process process;
    private final Path log;

    RegionProcess(String label, Process process, Path log) {
        this.label = label;
        this.process = process;
        this.log = log;
    }

    /** The name it was started under, which also names its log file. */
    public String label() {
        return label;
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Its output so far, stdout and stderr interleaved. */
    public Path log() {
        return log;
    }

    /** SIGKILL, as a crash or a lost node: the process dies at once and its connections are reset by the kernel. */
    public void kill() {
        process.destroyForcibly();
        waitForExit(STOP_GRACE);
    }

    /** SIGTERM, SIGKILL if it has not exited after {@link #STOP_GRACE}; returns once it is gone. */
    public void stop() {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        if (!waitForExit(STOP_GRACE)) {
            kill();
        }
    }

    /**
     * Polls {@code condition} until it holds; fails with the end of this process's log if it exits first or
     * {@code timeout} passes.
     *
     * @param what what is awaited, for the failure message
     */
    public void awaitWhileAlive(String what, Duration timeout, Callable<Boolean> condition) throws IOException {
        try {
            await().atMost(timeout).pollDelay(Duration.ZERO).pollInterval(POLL).pollInSameThread()
                    .failFast(label + " exited", () -> !process.isAlive())
                    .until(condition);
        } catch (TerminalFailureException exited) {
            throw new IOException(label + " exited with " + process.exitValue() + " before " + what
                    + "; its log " + log + " ends with:\n" + logTail(30), exited);
        } catch (ConditionTimeoutException late) {
            throw new IOException("no " + what + " after " + timeout.toSeconds() + " s; the log of " + label + " ("
                    + log + ") ends with:\n" + logTail(30), late);
        }
    }

    /** Its exit code, once it has exited. */
    public int exitValue() {
        return process.exitValue();
    }

    /** The last lines of its log, for a failure message. */
    public String logTail(int lines) {
        try {
            List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(log " + log + " unreadable: " + e.getMessage() + ")";
        }
    }

    @Override
    public String toString() {
        return label + " (pid " + pid() + (isAlive() ? "" : ", exited") + ", log " + log + ")";
    }

    boolean waitForExit(Duration timeout) {
        try {
            return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return !process.isAlive();
        }
    }

    Process process() {
        return process;
    }
}
