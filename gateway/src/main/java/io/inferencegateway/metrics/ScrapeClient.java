package io.inferencegateway.metrics;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.proxy.UpstreamTls;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.HttpResponseDecoder;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutor;

/**
 * The HTTP/1.1 client of the {@link MetricsScraper}: one kept-alive connection per pod ({@link ScrapeConnection}),
 * all of them served by one small group of event loops that belongs to the scraper, so that the cost of scraping a
 * fleet is bounded by those threads and no scrape competes with requests on the gateway's own I/O threads
 * (edge/GatewayEventLoops.java). No thread waits on any scrape; each one's deadline is a task on its connection's
 * event loop.
 */
final class ScrapeClient implements AutoCloseable {

    /** Told how one GET ended, exactly once, on the connection's event loop; must not block. */
    interface Answer {

        /** A whole response; {@code body[offset, offset + length)} is valid only during the call. */
        void answered(int status, byte[] body, int offset, int length);

        /** No whole response: the connection failed or closed, the body was too large, or the client closed. */
        void failed(Throwable cause);

        /** No whole response within the timeout; the connection was closed. */
        void timedOut();

        /** The response's headers arrived {@code nanos} after the request was written (before {@link #answered}). */
        default void headersAfter(long nanos) {
        }
    }

    private final EventLoopGroup loops;
    private final Bootstrap bootstrap;
    private final long timeoutNanos;
    private final int maxBodyBytes;
    private final ConcurrentHashMap<Endpoint, ScrapeConnection> connections = new ConcurrentHashMap<>();
    private volatile boolean closed;

    /**
     * @param ioThreads    event loops shared by every pod's connection
     * @param timeout      longest wait for a whole answer, connecting included
     * @param maxBodyBytes a larger body fails the GET and closes its connection
     */
    ScrapeClient(int ioThreads, Duration timeout, int maxBodyBytes) {
        // Netty 4.1's group classes rather than 4.2's IoHandler groups: the Camel Quarkus build runs on Netty 4.1. Epoll
        // wherever it loads: 512 pods cost 0.45-0.51 cores on it, 0.47-0.59 on NIO (four runs each, ScrapeCostBenchmark)
        ThreadFactory names = new DefaultThreadFactory("metrics-scrape", true);
        boolean epoll = Epoll.isAvailable();
        this.loops = epoll ? new EpollEventLoopGroup(ioThreads, names) : new NioEventLoopGroup(ioThreads, names);
        this.timeoutNanos = timeout.toNanos();
        this.maxBodyBytes = maxBodyBytes;
        this.bootstrap = new Bootstrap()
                .channel(epoll ? EpollSocketChannel.class : NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                // pooled: Netty 4.2's default (adaptive) allocator frees and re-allocates the direct read buffers and
                // the 52 KB body buffer of a vLLM exposition on most scrapes instead of reusing them
                .option(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, timeout.toMillis()));
        for (EventExecutor loop : loops) {
            loop.execute(() -> warmUp((EventLoop) loop)); // ahead of any scrape on that loop
        }
    }

    /**
     * Loads and runs the connection's and the response's paths once, so that the first scrape does not pay for
     * loading Netty's classes against its timeout (on a loaded machine that took up to a second).
     */
    private void warmUp(EventLoop loop) {
        bootstrap.clone(loop).handler(new ChannelInboundHandlerAdapter()).register()
                .addListener((ChannelFuture f) -> f.channel().close());
        EmbeddedChannel ch = new EmbeddedChannel(new HttpResponseDecoder());
        ch.writeInbound(Unpooled.copiedBuffer("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok", StandardCharsets.US_ASCII));
        ch.finishAndReleaseAll();
        PooledByteBufAllocator.DEFAULT.heapBuffer(16).release();
    }

    /**
     * GETs {@code path} from the endpoint over its kept-alive connection; {@code answer} hears how it ended. Sends
     * {@code authorization} (say {@code Bearer <token>}) unless it is null, and goes over HTTPS when
     * {@code tls} is not null (a remote gateway's capacity summary). An endpoint's connection speaks one way: a GET
     * with another {@code tls} than the last one's replaces it.
     */
    void get(Endpoint endpoint, String path, String authorization, UpstreamTls tls, Answer answer) {
        try {
            if (closed) {
                throw new RejectedExecutionException("the scraper is closed");
            }
            connections.compute(endpoint, (e, old) -> {
                if (old != null && old.tls() == tls) {
                    return old;
                }
                if (old != null) {
                    old.retire();
                }
                return new ScrapeConnection(this, e, tls, loops.next());
            }).fetch(path, authorization, answer);
        } catch (RejectedExecutionException closedMeanwhile) {
            answer.failed(closedMeanwhile);
        }
    }

    /** Closes the connection to an endpoint that left every pool (once its GET in flight, if any, has ended). */
    void forget(Endpoint endpoint) {
        ScrapeConnection c = connections.remove(endpoint);
        if (c != null) {
            c.retire();
        }
    }

    /** {@link #forget}s every endpoint not in {@code keep}. */
    void retainOnly(Set<Endpoint> keep) {
        for (Endpoint e : connections.keySet()) {
            if (!keep.contains(e)) {
                forget(e);
            }
        }
    }

    /** Open connections right now; for tests. */
    int openConnections() {
        return (int) connections.values().stream().filter(ScrapeConnection::isOpen).count();
    }

    Bootstrap bootstrap() {
        return bootstrap;
    }

    long timeoutNanos() {
        return timeoutNanos;
    }

    int maxBodyBytes() {
        return maxBodyBytes;
    }

    /** Fails the GETs in flight, closes every connection and stops the event loops. */
    @Override
    public void close() {
        closed = true;
        for (Endpoint e : connections.keySet()) {
            ScrapeConnection c = connections.remove(e);
            if (c != null) {
                c.shutdown();
            }
        }
        // the tasks queued above still run: a graceful shutdown drains the queue before the loops stop
        loops.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
