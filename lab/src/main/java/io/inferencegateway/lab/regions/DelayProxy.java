package io.inferencegateway.lab.regions;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.Future;

/**
 * A TCP proxy that plays a wide-area link: it listens on one address, forwards each connection to a target, and holds
 * every chunk of bytes for a one-way delay in each direction (order kept, the delay changeable while it runs). A
 * request on a kept-alive connection costs two delays more than without the proxy, a fresh connection two more for
 * its handshake (see {@link ProxiedConnection}). The link can be cut:
 * <ul>
 *   <li>{@link CutMode#RESET}: every connection is reset and the listener closed, so a new connect is refused at once
 *       (as when the far side is down and says so);</li>
 *   <li>{@link CutMode#BLACKHOLE}: connections are still accepted and kept, but no byte crosses in either direction,
 *       so the caller waits for its own timeout (a partition, a dead router).</li>
 * </ul>
 * {@link #restore()} heals it: after a blackhole, what was held goes on (TCP would retransmit it); after a reset, the
 * listener is bound again on the same port. Counters of connections and forwarded bytes are for assertions.
 *
 * <p>All connections run on one event loop thread of the proxy's own (no thread per connection), epoll where it loads,
 * else NIO; {@link #close()} closes every channel and stops that thread.
 *
 * <pre>{@code
 * InetSocketAddress anyPort = new InetSocketAddress("127.0.0.1", 0);
 * try (DelayProxy link = DelayProxy.start("east", anyPort, target, Duration.ofMillis(40))) {
 *     call(link.address());          // >= 80 ms more per round trip on a kept-alive connection
 *     link.cut(CutMode.BLACKHOLE);   // calls time out
 *     link.restore();
 * }
 * }</pre>
 */
public final class DelayProxy implements AutoCloseable {

    /** How a cut link behaves. */
    public enum CutMode {
        /** Every connection reset, new connects refused. */
        RESET,
        /** Connections accepted and kept, nothing forwarded. */
        BLACKHOLE
    }

    private final String name;
    private final InetSocketAddress target;
    private final EventLoopGroup group;
    private final EventLoop loop;
    private final ServerBootstrap listener;
    private final AtomicLong accepted = new AtomicLong();
    private final AtomicInteger open = new AtomicInteger();
    private final AtomicLong bytesToTarget = new AtomicLong();
    private final AtomicLong bytesToClient = new AtomicLong();
    private final AtomicLong targetConnectFailures = new AtomicLong();
    private final Set<ProxiedConnection> connections = new LinkedHashSet<>(); // event loop only
    private volatile long delayNanos;
    private volatile CutMode cut;
    private volatile InetSocketAddress address;
    private Channel server; // event loop only

    private DelayProxy(String name, InetSocketAddress target, Duration oneWayDelay) {
        this.name = name;
        this.target = target;
        this.delayNanos = nanos(oneWayDelay);
        this.group = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("delay-proxy-" + name, true),
                Epoll.isAvailable() ? EpollIoHandler.newFactory() : NioIoHandler.newFactory());
        this.loop = group.next();
        this.listener = new ServerBootstrap().group(group)
                .channel(Epoll.isAvailable() ? EpollServerSocketChannel.class : NioServerSocketChannel.class)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.AUTO_READ, false)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel client) {
                        accept(client);
                    }
                });
    }

    /**
     * Starts a proxy listening on {@code listen} (port 0: a free one, see {@link #address()}) and forwarding to
     * {@code target}.
     *
     * @param name        names its thread, {@code delay-proxy-<name>}
     * @param oneWayDelay added in each direction; zero for none
     */
    public static DelayProxy start(String name, InetSocketAddress listen, InetSocketAddress target,
                                   Duration oneWayDelay) {
        DelayProxy proxy = new DelayProxy(name, target, oneWayDelay);
        try {
            proxy.bind(listen);
        } catch (RuntimeException e) {
            proxy.group.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS).syncUninterruptibly();
            throw e;
        }
        return proxy;
    }

    /** Where clients connect: the bound address, its port resolved. */
    public InetSocketAddress address() {
        return address;
    }

    /** Where connections are forwarded. */
    public InetSocketAddress target() {
        return target;
    }

    /** The one-way delay now in force. */
    public Duration delay() {
        return Duration.ofNanos(delayNanos);
    }

    /** Changes the one-way delay for every byte read from now on, on open connections too (order is kept). */
    public void delay(Duration oneWay) {
        delayNanos = nanos(oneWay);
    }

    /** Cuts the link (a cut in the other mode is restored first); returns once the cut is in force. */
    public void cut(CutMode mode) {
        if (cut == mode) {
            return;
        }
        if (cut != null) {
            restore();
        }
        Future<?> closed = onLoop(() -> {
            cut = mode;
            if (mode == CutMode.BLACKHOLE) {
                connections.forEach(ProxiedConnection::hold);
                return null;
            }
            new ArrayList<>(connections).forEach(ProxiedConnection::reset);
            return server.close();
        });
        if (closed != null) {
            closed.syncUninterruptibly();
            // NIO closes a listening socket for real only when its selector next runs, which this round trip waits
            // for (epoll closes it at once); until then a connect would be accepted by the kernel and reset
            onLoop(() -> null);
        }
    }

    /** Heals a cut; does nothing on a link that is up. */
    public void restore() {
        CutMode was = cut;
        if (was == CutMode.BLACKHOLE) {
            onLoop(() -> {
                cut = null;
                new ArrayList<>(connections).forEach(ProxiedConnection::release);
                return null;
            });
        } else if (was == CutMode.RESET) {
            cut = null; // before the bind: a connection accepted at once is served, not reset
            try {
                bind(address);
            } catch (RuntimeException e) {
                cut = CutMode.RESET;
                throw e;
            }
        }
    }

    /** The cut in force, if any. */
    public Optional<CutMode> cutMode() {
        return Optional.ofNullable(cut);
    }

    /** Client connections accepted since the start. */
    public long connectionsAccepted() {
        return accepted.get();
    }

    /** Client connections open now (each with its connection to the target, if made). */
    public int connectionsOpen() {
        return open.get();
    }

    /** Bytes written to the target since the start. */
    public long bytesToTarget() {
        return bytesToTarget.get();
    }

    /** Bytes written back to clients since the start. */
    public long bytesToClient() {
        return bytesToClient.get();
    }

    /** Connects to the target that failed (refused, timed out); each was passed on as a reset of its client. */
    public long targetConnectFailures() {
        return targetConnectFailures.get();
    }

    /** Closes the listener and every connection, and stops the proxy's thread. */
    @Override
    public void close() {
        if (!group.isShuttingDown()) {
            onLoop(() -> {
                if (server != null) {
                    server.close();
                }
                new ArrayList<>(connections).forEach(ProxiedConnection::reset);
                return null;
            });
        }
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    @Override
    public String toString() {
        return "DelayProxy[" + name + " " + address + " -> " + target + ", " + delay().toMillis() + " ms"
                + (cut == null ? "" : ", cut " + cut) + "]";
    }

    long delayNanos() {
        return delayNanos;
    }

    /** The kind of channel that dials the target, of the same transport as the listener. */
    static Class<? extends Channel> socketChannelClass() {
        return Epoll.isAvailable() ? EpollSocketChannel.class : NioSocketChannel.class;
    }

    AtomicLong bytesToTargetCounter() {
        return bytesToTarget;
    }

    AtomicLong bytesToClientCounter() {
        return bytesToClient;
    }

    void countTargetConnectFailure() {
        targetConnectFailures.incrementAndGet();
    }

    /** A connection has ended (both its ends closed, or reset). */
    void forget(ProxiedConnection connection) {
        if (connections.remove(connection)) {
            open.decrementAndGet();
        }
    }

    private void accept(Channel client) {
        if (cut == CutMode.RESET) { // accepted just before the listener closed
            client.config().setOption(ChannelOption.SO_LINGER, 0);
            client.close();
            return;
        }
        accepted.incrementAndGet();
        open.incrementAndGet();
        ProxiedConnection connection = new ProxiedConnection(this, client);
        connections.add(connection);
        client.pipeline().addFirst(new ChannelInboundHandlerAdapter() {
            @Override
            public void channelActive(ChannelHandlerContext ctx) {
                ctx.pipeline().remove(this);
                connection.start(cut == CutMode.BLACKHOLE);
                ctx.fireChannelActive();
            }
        });
    }

    /**
     * Binds {@code listen}; port 0 takes a free port below the kernel's ephemeral range (32768 and up here), so that
     * while a reset cut has the port closed no outgoing connection of the box takes it and the restore can bind again.
     */
    private void bind(InetSocketAddress listen) {
        if (listen.getPort() != 0) {
            bindExactly(listen);
            return;
        }
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int attempt = 1;; attempt++) {
            try {
                bindExactly(new InetSocketAddress(listen.getAddress(), random.nextInt(20_000, 32_000)));
                return;
            } catch (RuntimeException taken) {
                if (attempt == 50) {
                    throw taken;
                }
            }
        }
    }

    private void bindExactly(InetSocketAddress listen) {
        Channel bound = listener.bind(listen).syncUninterruptibly().channel();
        address = (InetSocketAddress) bound.localAddress();
        onLoop(() -> {
            server = bound;
            return null;
        });
    }

    /** Runs {@code action} on the event loop and waits for it; what it returns. */
    private <T> T onLoop(Callable<T> action) {
        try {
            if (loop.inEventLoop()) {
                return action.call();
            }
            return loop.submit(action).syncUninterruptibly().getNow();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static long nanos(Duration d) {
        if (d.isNegative()) {
            throw new IllegalArgumentException("a delay cannot be negative: " + d);
        }
        return d.toNanos();
    }
}
