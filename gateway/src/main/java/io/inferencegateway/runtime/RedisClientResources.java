package io.inferencegateway.runtime;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.Delay;

/**
 * The Lettuce threads every Redis client of one gateway shares (the rate limits' store, the shared placement of each
 * Redis URL): made when the first of them is built, so a gateway without Redis starts none, and shut down by the
 * gateway after the clients that use them.
 *
 * <p>Sized at Lettuce's minimum, which it raises anything lower to: two I/O threads and two computation threads, plus
 * its timer thread for command timeouts. That is plenty for a handful of connections (one for the limits, a publisher
 * and a subscriber per placement URL), each served by one I/O thread and light on it (a Lua reply, a decision of a
 * few hundred bytes), and for the computation threads' few timers (reconnects, the placement's traffic window). A
 * lost connection is retried every half second.
 */
public final class RedisClientResources implements AutoCloseable {

    static final int IO_THREADS = DefaultClientResources.MIN_IO_THREADS;
    static final int COMPUTATION_THREADS = DefaultClientResources.MIN_COMPUTATION_THREADS;
    static final Duration RECONNECT_DELAY = Duration.ofMillis(500);

    private ClientResources resources;
    private boolean closed;

    /** The shared resources, made on the first call. */
    public synchronized ClientResources get() {
        if (closed) {
            throw new IllegalStateException("the gateway is closed");
        }
        if (resources == null) {
            resources = DefaultClientResources.builder().ioThreadPoolSize(IO_THREADS)
                    .computationThreadPoolSize(COMPUTATION_THREADS).reconnectDelay(Delay.constant(RECONNECT_DELAY))
                    .build();
        }
        return resources;
    }

    /** Ends the threads, if any were made; the clients that use them must be shut down first. */
    @Override
    public synchronized void close() {
        closed = true;
        if (resources != null) {
            resources.shutdown(0, 2, TimeUnit.SECONDS);
        }
    }
}
