package io.inferencegateway.edge;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import io.inferencegateway.config.Durations;
import io.netty.channel.ChannelHandler;

/**
 * Connection hygiene for the ingress, which netty-http's consumer has none of: timeouts for a request's
 * header and body and for an idle kept-alive connection, a cap on open connections, and HTTP that does
 * not decode answered in the OpenAI error shape. What every connection shares lives here (the
 * {@code gateway.http.*} properties of the {@code clientConnections} bean in routes/gateway-beans.camel.yaml,
 * and the count of open connections behind its cap); each connection's own state is a {@link ClientConnection}.
 *
 * <p>Each connection gets its handler from {@link #get()}: the ingress installs it as its netty-http {@code encoders}
 * (routes/openai-ingress.camel.yaml, through the Camel adapter camel/PerConnectionHandler), which puts it right after
 * the HTTP encoder, where requests come in decoded and responses go out still whole. That handler adds the rest itself
 * (see {@link ClientConnection}). netty-http's own {@code serverInitializerFactory} option would be the obvious place
 * instead, but its consumer never reads it: {@code NettyHttpComponent} builds every server pipeline with a
 * {@code new HttpServerInitializerFactory}.
 */
public final class ClientConnections implements Supplier<ChannelHandler> {

    /** The phases of a connection in which the gateway waits for the client, each with its own timeout. */
    enum Wait {
        /** a request header, from accept or from its first byte after an idle pause, to its end */
        HEADER,
        /** the next bytes of a request body: the longest pause between two reads */
        BODY,
        /** the first byte of the next request, after the last response was written */
        IDLE
    }

    /**
     * The largest piece of a request body the decoder passes on: as large as one socket read (Netty reads at most
     * 64 KiB at a time), so a 200 KB prompt reaches the aggregator in four pieces rather than netty-http's default
     * of 8 KiB ones, 25 of them, each a component the parser and the upstream write then walk.
     */
    static final int MAX_CHUNK_SIZE = 65_536;

    private long headerTimeoutNanos = Duration.ofSeconds(60).toNanos();
    private long bodyTimeoutNanos = Duration.ofSeconds(60).toNanos();
    private long idleTimeoutNanos = Duration.ofSeconds(75).toNanos();
    private int maxConnections = 10_000;
    private int maxHeaderSize = 8192;
    private int maxInitialLineLength = 4096;

    private final AtomicInteger open = new AtomicInteger();
    private final ConnectionMeters meters;

    /** @param meters where the connections are counted (their open count is read from here) */
    public ClientConnections(ConnectionMeters meters) {
        this.meters = meters;
        meters.counts(open::get);
    }

    /** A new connection's handler. */
    @Override
    public ChannelHandler get() {
        return new ClientConnection(this).http();
    }

    /** {@code gateway.http.headerTimeout}: a whole request header must arrive within it ({@code 0s}: no limit). */
    public void setHeaderTimeout(String duration) {
        headerTimeoutNanos = Durations.parse(duration).toNanos();
    }

    /** {@code gateway.http.bodyTimeout}: the longest pause between two reads of a request body. */
    public void setBodyTimeout(String duration) {
        bodyTimeoutNanos = Durations.parse(duration).toNanos();
    }

    /** {@code gateway.http.idleTimeout}: how long a kept-alive connection may wait for its next request. */
    public void setIdleTimeout(String duration) {
        idleTimeoutNanos = Durations.parse(duration).toNanos();
    }

    /** {@code gateway.http.maxConnections}: open client connections; more are closed as they are accepted. */
    public void setMaxConnections(int max) {
        maxConnections = atLeastOne("maxConnections", max);
    }

    /** {@code gateway.http.maxHeaderSize}: bytes of all request headers together; more get 431. */
    public void setMaxHeaderSize(int bytes) {
        maxHeaderSize = atLeastOne("maxHeaderSize", bytes);
    }

    /** {@code gateway.http.maxInitialLineLength}: bytes of the request line; more get 414. */
    public void setMaxInitialLineLength(int bytes) {
        maxInitialLineLength = atLeastOne("maxInitialLineLength", bytes);
    }

    private static int atLeastOne(String name, int value) {
        if (value < 1) {
            throw new IllegalArgumentException("gateway.http." + name + " must be at least 1, got " + value);
        }
        return value;
    }

    /** Client connections open now. */
    public int open() {
        return open.get();
    }

    /** The timeout of a wait in nanoseconds; 0: no timeout. */
    long timeoutNanos(Wait wait) {
        return switch (wait) {
            case HEADER -> headerTimeoutNanos;
            case BODY -> bodyTimeoutNanos;
            case IDLE -> idleTimeoutNanos;
        };
    }

    StrictRequestDecoder newDecoder() {
        return new StrictRequestDecoder(maxInitialLineLength, maxHeaderSize, MAX_CHUNK_SIZE);
    }

    /** Counts a new connection in, or returns false (and counts it refused) when the cap is reached. */
    boolean admit() {
        if (open.incrementAndGet() > maxConnections) {
            open.decrementAndGet();
            meters.refused();
            return false;
        }
        return true;
    }

    /** An admitted connection closed. */
    void closed() {
        open.decrementAndGet();
    }

    void timedOut(Wait wait) {
        meters.timedOut(wait);
    }
}
