package io.inferencegateway.lab.benchmarks;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.ssl.OptionalSslHandler;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.util.CharsetUtil;

/**
 * The cheapest possible model server, for measuring what the gateway itself adds: a fixed 1 KiB JSON
 * answer, or (for {@code "stream":true}) an SSE stream whose first event leaves at once and whose
 * next events follow every {@code eventGapMillis}. Also answers {@code /metrics} as an idle vLLM.
 */
public final class OverheadStubServer implements AutoCloseable {

    private static final byte[] JSON_1K = jsonOfSize(1024);
    private static final byte[] METRICS = ("vllm:num_requests_running{model_name=\"m\"} 0\n"
            + "vllm:num_requests_waiting{model_name=\"m\"} 0\nvllm:kv_cache_usage_perc{model_name=\"m\"} 0\n")
            .getBytes(StandardCharsets.UTF_8);
    private static final byte[] EVENT = "data: {\"choices\":[{\"delta\":{\"content\":\"tok\"}}]}\n\n"
            .getBytes(StandardCharsets.UTF_8);

    private final EventLoopGroup group;
    private final Channel server;
    private final int events;
    private final long eventGapMillis;
    private final java.util.concurrent.atomic.AtomicInteger tlsConnections = new java.util.concurrent.atomic.AtomicInteger();

    public OverheadStubServer(int port, int threads, int events, long eventGapMillis) throws InterruptedException {
        this(port, threads, events, eventGapMillis, null);
    }

    /** With {@code tls}, HTTPS and plain HTTP on the one port (told apart by each connection's first bytes). */
    public OverheadStubServer(int port, int threads, int events, long eventGapMillis, SslContext tls)
            throws InterruptedException {
        this.events = events;
        this.eventGapMillis = eventGapMillis;
        this.group = new NioEventLoopGroup(threads);
        this.server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_BACKLOG, 4096)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        if (tls != null) {
                            ch.pipeline().addLast(new OptionalSslHandler(tls), new ChannelInboundHandlerAdapter() {
                                @Override
                                public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
                                    if (evt instanceof SslHandshakeCompletionEvent done && done.isSuccess()) {
                                        tlsConnections.incrementAndGet();
                                    }
                                    ctx.fireUserEventTriggered(evt);
                                }
                            });
                        }
                        ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(1 << 20), new Handler());
                    }
                }).bind("127.0.0.1", port).sync().channel();
    }

    /** Connections that completed a TLS handshake. */
    public int tlsConnections() {
        return tlsConnections.get();
    }

    public int port() {
        return ((java.net.InetSocketAddress) server.localAddress()).getPort();
    }

    private static byte[] jsonOfSize(int size) {
        String head = "{\"id\":\"cmpl-stub\",\"object\":\"text_completion\",\"choices\":[{\"text\":\"";
        String tail = "\"}]}";
        return (head + "x".repeat(size - head.length() - tail.length()) + tail).getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        server.close().syncUninterruptibly();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    private final class Handler extends SimpleChannelInboundHandler<FullHttpRequest> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
            if (req.uri().equals("/metrics")) {
                full(ctx, METRICS, "text/plain");
            } else if (head(req.content()).contains("\"stream\":true")) {
                HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
                head.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/event-stream")
                        .set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
                ctx.write(head);
                send(ctx, 0);
            } else {
                full(ctx, JSON_1K, "application/json");
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close(); // a client that resets its connection (wrk at the end of a run)
        }

        /** The body's first 256 bytes: the benchmarks put {@code stream} before a long prompt. */
        private static String head(ByteBuf content) {
            return content.toString(content.readerIndex(), Math.min(256, content.readableBytes()), CharsetUtil.UTF_8);
        }

        private void send(ChannelHandlerContext ctx, int i) {
            if (!ctx.channel().isActive()) {
                return;
            }
            if (i == events) {
                ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT);
                return;
            }
            ctx.writeAndFlush(new DefaultHttpContent(Unpooled.wrappedBuffer(EVENT)));
            ctx.executor().schedule(() -> send(ctx, i + 1), eventGapMillis, TimeUnit.MILLISECONDS);
        }

        private void full(ChannelHandlerContext ctx, byte[] body, String type) {
            ByteBuf content = Unpooled.wrappedBuffer(body);
            FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK, content);
            r.headers().set(HttpHeaderNames.CONTENT_TYPE, type).setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
            ctx.writeAndFlush(r);
        }
    }

    /** {@code OverheadStubServer PORT [THREADS] [EVENTS] [GAP_MS]}: runs until killed. */
    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : 1;
        int events = args.length > 2 ? Integer.parseInt(args[2]) : 20;
        long gap = args.length > 3 ? Long.parseLong(args[3]) : 20;
        OverheadStubServer s = new OverheadStubServer(port, threads, events, gap);
        System.out.println("stub model server on 127.0.0.1:" + s.port());
        Thread.currentThread().join();
    }
}
