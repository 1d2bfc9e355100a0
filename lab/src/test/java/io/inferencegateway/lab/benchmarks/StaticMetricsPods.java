package io.inferencegateway.lab.benchmarks;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequestDecoder;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.concurrent.DefaultThreadFactory;

/**
 * Pods whose {@code /metrics} costs next to nothing to serve: every one answers every request with the same
 * exposition, its whole HTTP response prepared once. For ScrapeCostBenchmark, so that what a scrape costs the
 * gateway shows apart from what rendering an exposition costs a model server (on its own machine, in a real fleet).
 */
final class StaticMetricsPods implements AutoCloseable {

    private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1,
            new DefaultThreadFactory("static-pod", true), NioIoHandler.newFactory());
    private final List<Channel> servers = new ArrayList<>();
    private final ByteBuf response;

    StaticMetricsPods(int pods, byte[] exposition) throws InterruptedException {
        byte[] head = ("HTTP/1.1 200 OK\r\nContent-Type: text/plain; version=0.0.4; charset=utf-8\r\n"
                + "Content-Length: " + exposition.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        ByteBuf bytes = Unpooled.directBuffer(head.length + exposition.length).writeBytes(head).writeBytes(exposition);
        this.response = Unpooled.unreleasableBuffer(bytes);
        ServerBootstrap bootstrap = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new HttpRequestDecoder(), new SimpleChannelInboundHandler<HttpObject>() {
                            @Override
                            protected void channelRead0(ChannelHandlerContext ctx, HttpObject msg) {
                                if (msg instanceof LastHttpContent) {
                                    ctx.writeAndFlush(response.duplicate(), ctx.voidPromise());
                                }
                            }

                            @Override
                            public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                                ctx.close(); // a scraper that gave up resets its connection
                            }
                        });
                    }
                });
        for (int i = 0; i < pods; i++) {
            servers.add(bootstrap.bind("127.0.0.1", 0).sync().channel());
        }
    }

    List<String> endpoints() {
        List<String> out = new ArrayList<>();
        for (Channel server : servers) {
            out.add("127.0.0.1:" + ((java.net.InetSocketAddress) server.localAddress()).getPort());
        }
        return out;
    }

    @Override
    public void close() {
        servers.forEach(Channel::close);
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        response.unwrap().release();
    }
}
