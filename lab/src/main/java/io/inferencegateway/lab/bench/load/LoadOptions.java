package io.inferencegateway.lab.bench.load;

import java.time.Duration;

/**
 * How the load generator runs.
 *
 * @param timeScale        simulated seconds per wall second: intended send times are divided by it,
 *                         measured latencies multiplied by it
 * @param maxConnections   most open connections per target; beyond that requests wait for a free one
 *                         (and the wait counts in their latency)
 * @param requestTimeout   longest a request may take, in simulated time, before it counts as
 *                         {@link Outcome#TIMEOUT}
 * @param drainTimeout     wall-clock time allowed after the last send for requests in flight to finish;
 *                         the rest are {@link Outcome#CANCELLED}
 * @param path             the chat completions path
 */
public record LoadOptions(double timeScale, int maxConnections, Duration requestTimeout, Duration drainTimeout,
                          String path) {

    public static final String CHAT_COMPLETIONS = "/v1/chat/completions";

    public LoadOptions {
        if (!(timeScale > 0)) {
            throw new IllegalArgumentException("timeScale must be positive, got " + timeScale);
        }
        if (maxConnections < 1) {
            throw new IllegalArgumentException("maxConnections must be positive, got " + maxConnections);
        }
    }

    public static LoadOptions defaults(double timeScale) {
        return new LoadOptions(timeScale, 4096, Duration.ofSeconds(300), Duration.ofSeconds(60), CHAT_COMPLETIONS);
    }

    public LoadOptions withRequestTimeout(Duration simulated) {
        return new LoadOptions(timeScale, maxConnections, simulated, drainTimeout, path);
    }

    public LoadOptions withDrainTimeout(Duration wall) {
        return new LoadOptions(timeScale, maxConnections, requestTimeout, wall, path);
    }

    public LoadOptions withMaxConnections(int max) {
        return new LoadOptions(timeScale, max, requestTimeout, drainTimeout, path);
    }

    /** Wall-clock nanoseconds for a simulated duration. */
    long toWall(long simulatedNanos) {
        return Math.round(simulatedNanos / timeScale);
    }

    /** Simulated nanoseconds for a wall-clock duration. */
    long toSimulated(long wallNanos) {
        return Math.round(wallNanos * timeScale);
    }
}
