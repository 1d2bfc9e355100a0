package io.inferencegateway.proxy;

import java.time.Duration;
import java.util.Deque;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.inferencegateway.domain.Endpoint;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioEventLoop;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.ScheduledFuture;

/**
 * A non-blocking HTTP/1.1 client for model servers: keep-alive connections pooled per endpoint, the
 * response body relayed chunk by chunk as a {@link StreamingBody}. No thread waits on any call.
 *
 * <p>A call runs on the event loop of the client connection it serves when there is one: the upstream
 * connection lives on that same loop, so a request, its response and every streamed chunk cross no
 * thread. Idle connections are therefore pooled per endpoint and loop.
 *
 * <p>A call may be sent over TLS ({@link UpstreamTls}): its connection opens with a handshake, bounded by the connect
 * timeout, and is pooled apart from plain ones and from those of another TLS context. A handshake that fails (an
 * untrusted certificate, a name that does not match) fails the call as a refused connection would: nothing was sent.
 *
 * <p>A connection idle for {@code idleConnectionTimeout} is not reused, and a sweep on each loop, every half of that
 * timeout, closes such connections; a connection in use pays nothing for its timeout.
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

    /** The TLS handler's name in a connection's pipeline. */
    private static final String TLS = "tls";

    private final Options options;
    private final Bootstrap bootstrap;
    private final long idleTimeoutNanos;
    private final ConcurrentHashMap<PoolKey, IdleConnections> idle = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<EventLoop, ScheduledFuture<?>> sweeps = new ConcurrentHashMap<>();
    private volatile EventLoopGroup ownLoops;

    /** Connections are pooled per endpoint, event loop and TLS context (null: plain). */
    private record PoolKey(Endpoint endpoint, EventLoop loop, UpstreamTls tls) {
    }

    /**
     * Idle keep-alive connections to one endpoint on one loop, most recently used last (so the oldest is first); its
     * size kept in O(1). Used on its loop, but for {@link #close} and {@link #idleConnections}.
     */
    private static final class IdleConnections {
        final Deque<UpstreamHandler> connections = new ConcurrentLinkedDeque<>();
        final AtomicInteger size = new AtomicInteger();

        UpstreamHandler pollNewest() {
            return counted(connections.pollLast());
        }

        UpstreamHandler pollOldest() {
            return counted(connections.pollFirst());
        }

        private UpstreamHandler counted(UpstreamHandler h) {
            if (h != null) {
                size.decrementAndGet();
            }
            return h;
        }

        boolean offer(UpstreamHandler h, int max) {
            if (size.incrementAndGet() > max) {
                size.decrementAndGet();
                return false;
            }
            connections.offerLast(h);
            return true;
        }

        void remove(UpstreamHandler h) {
            if (connections.remove(h)) {
                size.decrementAndGet();
            }
        }
    }

    public UpstreamClient(Options options) {
        this.options = options;
        this.idleTimeoutNanos = options.idleConnectionTimeout().toNanos();
        this.bootstrap = new Bootstrap()
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.SO_KEEPALIVE, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) options.connectTimeout().toMillis())
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline()
                                .addLast("codec", new HttpClientCodec())
                                .addLast(UpstreamHandler.NAME, new UpstreamHandler());
                    }
                });
    }

    /** Sends a request over plain HTTP; see the {@code send} below, with a null {@code tls}. */
    public UpstreamCall send(Endpoint endpoint, FullHttpRequest request, Duration timeout, UpstreamListener listener,
            EventLoop loop) {
        return send(endpoint, request, timeout, listener, loop, null);
    }

    /**
     * Sends a request. The call owns {@code request} (and releases it); the listener hears the outcome.
     *
     * @param timeout longest wait for the response headers, and for any gap in the body after them
     * @param loop    the event loop of the client connection being served, or null: the call and its
     *                upstream connection then use the client's own loops
     * @param tls     how to speak HTTPS to the endpoint, or null for plain HTTP
     */
    public UpstreamCall send(Endpoint endpoint, FullHttpRequest request, Duration timeout, UpstreamListener listener,
            EventLoop loop, UpstreamTls tls) {
        EventLoop home = socketChannelFor(loop) != null ? loop : ownLoops().next();
        UpstreamCall call = new UpstreamCall(this, endpoint, request, timeout.toNanos(), listener, home, tls);
        UpstreamHandler pooled = pollIdle(new PoolKey(endpoint, home, tls));
        if (pooled != null) {
            call.dispatch(pooled, true);
        } else {
            connect(call);
        }
        return call;
    }

    void connect(UpstreamCall call) {
        Endpoint e = call.endpoint();
        UpstreamTls tls = call.tls();
        Bootstrap b = bootstrap.clone(call.loop()).channel(socketChannelFor(call.loop()));
        if (tls != null) {
            b.handler(new ChannelInitializer<SocketChannel>() {
                @Override
                protected void initChannel(SocketChannel ch) {
                    ch.pipeline()
                            .addLast(TLS, tls.newHandler(ch.alloc(), e, options.connectTimeout().toMillis()))
                            .addLast("codec", new HttpClientCodec())
                            .addLast(UpstreamHandler.NAME, new UpstreamHandler());
                }
            });
        }
        ChannelFuture f = b.connect(e.host(), e.port());
        f.addListener(done -> {
            if (!done.isSuccess()) {
                call.connectFailed(done.cause());
                return;
            }
            Channel ch = f.channel();
            UpstreamHandler h = UpstreamHandler.of(ch);
            ch.closeFuture().addListener(closed -> forgetIdle(e, tls, h));
            if (tls == null) {
                call.dispatch(h, false);
                return;
            }
            // on the connection's loop, as the connect's listener is; the call goes out once the server is verified
            ((SslHandler) ch.pipeline().get(TLS)).handshakeFuture().addListener(handshake -> {
                if (handshake.isSuccess()) {
                    call.dispatch(h, false);
                } else {
                    ch.close();
                    call.handshakeFailed(handshake.cause());
                }
            });
        });
    }

    /**
     * The socket channel of {@code loop}'s transport (the gateway's loops are NIO or epoll, GatewayEventLoops), or null
     * for a loop this client does not connect from. By the group for epoll: Netty 4.1 keeps its epoll loop class private.
     */
    private static Class<? extends SocketChannel> socketChannelFor(EventLoop loop) {
        if (loop instanceof NioEventLoop) {
            return NioSocketChannel.class;
        }
        return loop != null && loop.parent() instanceof EpollEventLoopGroup ? EpollSocketChannel.class : null;
    }

    private EventLoopGroup ownLoops() {
        EventLoopGroup g = ownLoops;
        if (g == null) {
            synchronized (this) {
                if (ownLoops == null) {
                    ownLoops = new NioEventLoopGroup(options.ioThreads(), new DefaultThreadFactory("upstream-io", true));
                }
                g = ownLoops;
            }
        }
        return g;
    }

    private UpstreamHandler pollIdle(PoolKey key) {
        IdleConnections q = idle.get(key);
        if (q == null) {
            return null;
        }
        UpstreamHandler h;
        while ((h = q.pollNewest()) != null) {
            if (h.channel().isActive() && !idleTooLong(h, System.nanoTime())) {
                return h;
            }
            h.channel().close();
        }
        return null;
    }

    private boolean idleTooLong(UpstreamHandler h, long now) {
        return now - h.idleSinceNanos() >= idleTimeoutNanos;
    }

    /** Returns a connection whose response was read fully, for the next call to the same endpoint over the same TLS. */
    void recycle(Endpoint endpoint, UpstreamTls tls, UpstreamHandler h) {
        Channel ch = h.channel();
        IdleConnections q = idle.computeIfAbsent(new PoolKey(endpoint, ch.eventLoop(), tls), this::newPool);
        if (!ch.isActive() || !q.offer(h, options.maxIdleConnectionsPerEndpoint())) {
            ch.close();
        }
    }

    /** The pool of a new endpoint on a loop, and the loop's sweep if it has none yet. */
    private IdleConnections newPool(PoolKey key) {
        EventLoop loop = key.loop();
        sweeps.computeIfAbsent(loop, l -> {
            long period = Math.max(1, idleTimeoutNanos / 2);
            return l.scheduleAtFixedRate(() -> sweep(l), period, period, TimeUnit.NANOSECONDS);
        });
        return new IdleConnections();
    }

    /** On {@code loop}: closes its pooled connections that were idle too long, oldest first. */
    private void sweep(EventLoop loop) {
        long now = System.nanoTime();
        for (var e : idle.entrySet()) {
            if (e.getKey().loop() != loop) {
                continue;
            }
            IdleConnections q = e.getValue();
            UpstreamHandler oldest;
            while ((oldest = q.connections.peekFirst()) != null && idleTooLong(oldest, now)) {
                UpstreamHandler h = q.pollOldest();
                if (h != null) {
                    h.channel().close();
                }
            }
        }
    }

    private void forgetIdle(Endpoint endpoint, UpstreamTls tls, UpstreamHandler h) {
        IdleConnections q = idle.get(new PoolKey(endpoint, h.channel().eventLoop(), tls));
        if (q != null) {
            q.remove(h);
        }
    }

    /** Idle pooled connections to an endpoint, over all loops, plain and TLS; for tests and metrics. */
    public int idleConnections(Endpoint endpoint) {
        int n = 0;
        for (var e : idle.entrySet()) {
            if (e.getKey().endpoint().equals(endpoint)) {
                n += e.getValue().size.get();
            }
        }
        return n;
    }

    /** Idle pooled connections to an endpoint over {@code tls} (null: plain ones), over all loops; for tests. */
    public int idleConnections(Endpoint endpoint, UpstreamTls tls) {
        int n = 0;
        for (var e : idle.entrySet()) {
            if (e.getKey().endpoint().equals(endpoint) && e.getKey().tls() == tls) {
                n += e.getValue().size.get();
            }
        }
        return n;
    }

    @Override
    public void close() {
        sweeps.values().forEach(sweep -> sweep.cancel(false));
        sweeps.clear();
        for (IdleConnections q : idle.values()) {
            UpstreamHandler h;
            while ((h = q.pollNewest()) != null) {
                h.channel().close();
            }
        }
        EventLoopGroup g = ownLoops;
        if (g != null) {
            g.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }
}
