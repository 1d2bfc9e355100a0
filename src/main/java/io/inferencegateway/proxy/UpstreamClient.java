package io.inferencegateway.proxy;

import java.time.Duration;
import java.util.Deque;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.inferencegateway.core.Endpoint;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.concurrent.DefaultThreadFactory;

/**
 * A non-blocking HTTP/1.1 client for model servers: keep-alive connections pooled per endpoint, the
 * response body relayed chunk by chunk as a {@link StreamingBody}. No thread waits on any call.
 */
public final class UpstreamClient implements AutoCloseable {

    /** Tunables; the defaults suit model servers behind the gateway. */
    public record Options(int ioThreads, Duration connectTimeout, Duration idleConnectionTimeout,
            int maxIdleConnectionsPerEndpoint) {

        /**
         * Idle connections are closed after 4 s, under uvicorn's default keep-alive timeout of 5 s
         * (vLLM and SGLang serve through uvicorn), so that the gateway seldom reuses a connection the
         * server is closing.
         */
        public static Options defaults() {
            return new Options(Math.max(1, Runtime.getRuntime().availableProcessors()), Duration.ofSeconds(2),
                    Duration.ofSeconds(4), 1024);
        }
    }

    private final Options options;
    private final EventLoopGroup group;
    private final Bootstrap bootstrap;
    private final ConcurrentHashMap<Endpoint, IdleConnections> idle = new ConcurrentHashMap<>();

    /** Idle keep-alive connections to one endpoint, most recently used last; its size kept in O(1). */
    private static final class IdleConnections {
        final Deque<Channel> channels = new ConcurrentLinkedDeque<>();
        final AtomicInteger size = new AtomicInteger();

        Channel pollNewest() {
            Channel ch = channels.pollLast();
            if (ch != null) {
                size.decrementAndGet();
            }
            return ch;
        }

        boolean offer(Channel ch, int max) {
            if (size.incrementAndGet() > max) {
                size.decrementAndGet();
                return false;
            }
            channels.offerLast(ch);
            return true;
        }

        void remove(Channel ch) {
            if (channels.remove(ch)) {
                size.decrementAndGet();
            }
        }
    }

    public UpstreamClient(Options options) {
        this.options = options;
        this.group = new NioEventLoopGroup(options.ioThreads(), new DefaultThreadFactory("upstream-io", true));
        this.bootstrap = new Bootstrap()
                .group(group)
                .channel(NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.SO_KEEPALIVE, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) options.connectTimeout().toMillis())
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline()
                                .addLast("codec", new HttpClientCodec())
                                .addLast("idle", new IdleStateHandler(0, 0,
                                        options.idleConnectionTimeout().toMillis(), TimeUnit.MILLISECONDS))
                                .addLast("call", new UpstreamHandler());
                    }
                });
    }

    /**
     * Sends a request. The call owns {@code request} (and releases it); the listener hears the outcome.
     *
     * @param timeout longest wait for the response headers, and for any gap in the body after them
     */
    public UpstreamCall send(Endpoint endpoint, FullHttpRequest request, Duration timeout, UpstreamListener listener) {
        UpstreamCall call = new UpstreamCall(this, endpoint, request, timeout.toNanos(), listener);
        Channel pooled = pollIdle(endpoint);
        if (pooled != null) {
            call.dispatch(pooled, true);
        } else {
            connect(call);
        }
        return call;
    }

    void connect(UpstreamCall call) {
        Endpoint e = call.endpoint();
        ChannelFuture f = bootstrap.connect(e.host(), e.port());
        f.addListener(done -> {
            if (done.isSuccess()) {
                Channel ch = f.channel();
                ch.closeFuture().addListener(closed -> forgetIdle(e, ch));
                call.dispatch(ch, false);
            } else {
                call.connectFailed(done.cause());
            }
        });
    }

    private Channel pollIdle(Endpoint endpoint) {
        IdleConnections q = idle.get(endpoint);
        if (q == null) {
            return null;
        }
        Channel ch;
        while ((ch = q.pollNewest()) != null) {
            if (ch.isActive()) {
                return ch;
            }
        }
        return null;
    }

    /** Returns a connection whose response was read fully, for the next call to the same endpoint. */
    void recycle(Endpoint endpoint, Channel ch) {
        IdleConnections q = idle.computeIfAbsent(endpoint, k -> new IdleConnections());
        if (!ch.isActive() || !q.offer(ch, options.maxIdleConnectionsPerEndpoint())) {
            ch.close();
        }
    }

    private void forgetIdle(Endpoint endpoint, Channel ch) {
        IdleConnections q = idle.get(endpoint);
        if (q != null) {
            q.remove(ch);
        }
    }

    /** Idle pooled connections per endpoint, for tests and metrics. */
    public int idleConnections(Endpoint endpoint) {
        IdleConnections q = idle.get(endpoint);
        return q == null ? 0 : q.size.get();
    }

    @Override
    public void close() {
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
