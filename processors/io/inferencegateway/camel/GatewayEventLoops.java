package io.inferencegateway.camel;

import java.util.concurrent.TimeUnit;

import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.util.concurrent.DefaultThreadFactory;

/**
 * The gateway's I/O threads, shared by the netty-http ingress (as its worker group) and the upstream
 * client: a request, its upstream call and every chunk of its response stay on one thread. Owned by
 * the gateway rather than by netty-http, so that it outlives the upstream connections at shutdown.
 *
 * <p>On Linux with Netty's epoll library on the classpath (the runnable jar has it) they use epoll, else NIO; the
 * ingress's {@code nativeTransport} (routes/openai-ingress.camel.yaml) follows the same {@code gateway.nativeTransport}
 * property, which {@link GatewayServer} sets to {@link #nativeTransportAvailable()}.
 */
public final class GatewayEventLoops extends MultiThreadIoEventLoopGroup implements AutoCloseable {

    /**
     * @param threads         I/O threads; 0 means Netty's default of two per core
     * @param nativeTransport epoll rather than NIO
     */
    public GatewayEventLoops(int threads, boolean nativeTransport) {
        super(threads, new DefaultThreadFactory("gateway-io", true), handlers(nativeTransport));
    }

    /** NIO threads. */
    public GatewayEventLoops(int threads) {
        this(threads, false);
    }

    /** Whether epoll can be used here: Linux, and the native library loads. */
    public static boolean nativeTransportAvailable() {
        return Epoll.isAvailable();
    }

    private static IoHandlerFactory handlers(boolean nativeTransport) {
        if (nativeTransport) {
            Epoll.ensureAvailability(); // names the reason when asked for epoll where it cannot load
            return EpollIoHandler.newFactory();
        }
        return NioIoHandler.newFactory();
    }

    @Override
    public void close() {
        shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
