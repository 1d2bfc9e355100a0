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

    /** @param threads I/O threads; 0 means Netty's default of two per core */
    public GatewayEventLoops(int threads) {
        super(threads, new DefaultThreadFactory("gateway-io", true));
    }

    @Override
    public void close() {
        shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
