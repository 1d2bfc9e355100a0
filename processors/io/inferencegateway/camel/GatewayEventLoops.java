package io.inferencegateway.camel;

import java.util.concurrent.TimeUnit;

import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;

/**
 * The gateway's I/O threads, shared by the netty-http ingress (as its worker group) and the upstream
 * client: a request, its upstream call and every chunk of its response stay on one thread. Owned by
 * the gateway rather than by netty-http, so that it outlives the upstream connections at shutdown.
 */
public final class GatewayEventLoops extends NioEventLoopGroup implements AutoCloseable {

    /**
     * @param threads I/O threads; 0 means one per core, as nginx's {@code worker_processes auto}: Netty's own default of
     *                two per core cost about a fifth more CPU per request and per stream on two cores, for the same
     *                throughput (ProxyOverheadBenchmark, the same jar as baseline with
     *                {@code -DbaselineJvmArgs=-Dgateway.ioThreads=4}), since nothing blocks these threads
     */
    public GatewayEventLoops(int threads) {
        super(threads > 0 ? threads : Runtime.getRuntime().availableProcessors(),
                new DefaultThreadFactory("gateway-io", true));
    }

    @Override
    public void close() {
        shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
