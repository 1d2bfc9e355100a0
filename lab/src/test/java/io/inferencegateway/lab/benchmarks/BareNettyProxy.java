package io.inferencegateway.lab.benchmarks;

import java.util.ArrayDeque;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;

/**
 * The floor under the gateway's cost per request: a reverse proxy of plain Netty on the same transport and threads
 * (epoll, one event loop per core), with nothing of the gateway's: no Camel, no JSON, no pick, no metrics. Each
 * client connection gets its own kept-alive upstream connection on its loop; a request is aggregated, forwarded
 * as it is, and the aggregated answer written back. Not a product: a reference for what the JVM and Netty cost on
 * this machine, measured beside nginx and the gateway.
 *
 * <pre>
 * java -cp lab/target/test-classes:lab/target/classes:$(cat lab/target/test-classpath.txt) \
 *      io.inferencegateway.lab.benchmarks.BareNettyProxy UPSTREAM_PORT [PORT]
 * </pre>
 */
public final class BareNettyProxy {

    public static void main(String[] args) throws Exception {
        int upstreamPort = Integer.parseInt(args[0]);
        int port = args.length > 1 ? Integer.parseInt(args[1]) : 0;
        EventLoopGroup loops = new EpollEventLoopGroup(Runtime.getRuntime().availableProcessors());
        Bootstrap upstream = new Bootstrap().channel(EpollSocketChannel.class).option(ChannelOption.TCP_NODELAY, true);
        Channel server = new ServerBootstrap().group(loops).channel(EpollServerSocketChannel.class)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel client) {
                        client.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(1 << 20),
                                new Front(upstream, upstreamPort));
                    }
                }).bind("127.0.0.1", port).sync().channel();
        System.out.println("listening on " + ((java.net.InetSocketAddress) server.localAddress()).getPort());
        server.closeFuture().sync();
    }

    /** One client connection: requests go out in order on its own upstream connection, answers come back in order. */
    private static final class Front extends SimpleChannelInboundHandler<FullHttpRequest> {
        private final Bootstrap upstream;
        private final int upstreamPort;
        private final ArrayDeque<FullHttpRequest> waiting = new ArrayDeque<>();
        private Channel back;
        private boolean connecting;

        Front(Bootstrap upstream, int upstreamPort) {
            super(false);
            this.upstream = upstream;
            this.upstreamPort = upstreamPort;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
            if (back != null) {
                back.writeAndFlush(request);
                return;
            }
            waiting.add(request);
            if (!connecting) {
                connecting = true;
                Channel client = ctx.channel();
                upstream.clone(client.eventLoop()).handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new HttpClientCodec(), new HttpObjectAggregator(1 << 20),
                                new SimpleChannelInboundHandler<FullHttpResponse>(false) {
                                    @Override
                                    protected void channelRead0(ChannelHandlerContext c, FullHttpResponse response) {
                                        client.writeAndFlush(response);
                                    }
                                });
                    }
                }).connect("127.0.0.1", upstreamPort).addListener((ChannelFutureListener) f -> {
                    if (!f.isSuccess()) {
                        client.close();
                        return;
                    }
                    back = f.channel();
                    client.closeFuture().addListener(c -> back.close());
                    FullHttpRequest r;
                    while ((r = waiting.poll()) != null) {
                        back.writeAndFlush(r);
                    }
                });
            }
        }
    }
}
