package io.inferencegateway.edge;

import java.util.concurrent.ThreadFactory;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;

/**
 * The gateway's I/O threads, shared by the netty-http ingress (as its worker group) and the upstream
 * client: a request, its upstream call and every chunk of its response stay on one thread. A bean of the
 * gateway rather than netty-http's own, so that it outlives the upstream connections at shutdown.
 *
 * <p>Netty 4.1's group classes (Netty 4.2 keeps them), not 4.2's IoHandler groups: Camel K's runtime runs the same
 * beans on Netty 4.1.
 */
public final class GatewayEventLoops {

    private GatewayEventLoops() {
    }

    /**
     * @param threads         I/O threads; 0 means one per core, as nginx's {@code worker_processes auto}: Netty's own
     *                        default of two per core cost about a fifth more CPU per request and per stream on two
     *                        cores, for the same throughput (ProxyOverheadBenchmark, the same jar as baseline with
     *                        {@code -DbaselineJvmArgs=-Dgateway.ioThreads=4}), since nothing blocks these threads
     * @param nativeTransport Netty's epoll transport instead of the JDK's NIO selector (Linux only; fails here when
     *                        its native library does not load). The ingress must be told the same (its
     *                        {@code nativeTransport} option), and the upstream client follows the loop it is given.
     */
    public static EventLoopGroup create(int threads, boolean nativeTransport) {
        int n = threads > 0 ? threads : Runtime.getRuntime().availableProcessors();
        ThreadFactory names = new DefaultThreadFactory("gateway-io", true);
        if (nativeTransport) {
            Epoll.ensureAvailability();
            return new EpollEventLoopGroup(n, names);
        }
        return new NioEventLoopGroup(n, names);
    }

    /** Whether Netty's epoll transport loads in this JVM: the gateway's default for {@code gateway.nativeTransport}. */
    public static boolean nativeTransportAvailable() {
        return Epoll.isAvailable();
    }
}
