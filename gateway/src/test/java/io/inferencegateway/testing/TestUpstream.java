package io.inferencegateway.testing;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.ssl.OptionalSslHandler;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;

/**
 * A model server stand-in for gateway tests, on a real loopback socket: answers JSON, or streams SSE
 * events on a schedule, or dies or hangs on command; records what it received and which clients
 * went away.
 */
public final class TestUpstream implements AutoCloseable {

    /** What the upstream does with the next requests. */
    public sealed interface Behaviour permits Json, Sse, ChatSse, Hang, DieMidStream, Reset, ResetThen, Flood {
    }

    /** A 200 chat completion by {@code model} that reports this usage, as an OpenAI-compatible server answers. */
    public static Json chatCompletion(String model, int promptTokens, int completionTokens) {
        return new Json(200, "{\"id\":\"c\",\"object\":\"chat.completion\",\"model\":\"" + model + "\",\"choices\":[{"
                + "\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"hi\"},\"finish_reason\":\"stop\"}],"
                + "\"usage\":{\"prompt_tokens\":" + promptTokens + ",\"completion_tokens\":" + completionTokens
                + ",\"total_tokens\":" + (promptTokens + completionTokens) + "}}");
    }

    /** Answers {@code status} with a JSON body, and {@code headers} beside its own. */
    public record Json(int status, String body, Map<String, String> headers) implements Behaviour {
        public Json(int status, String body) {
            this(status, body, Map.of());
        }
    }

    /** Sends {@code events} SSE events {@code gapMillis} apart (the first right after the headers). */
    public record Sse(int events, long gapMillis) implements Behaviour {
    }

    /**
     * Streams a chat completion of {@code events} content chunks {@code gapMillis} apart, in the OpenAI
     * {@code chat.completion.chunk} shape an OpenAI SDK client parses ({@link #chatChunkContent}), then
     * {@code data: [DONE]}.
     */
    public record ChatSse(String model, int events, long gapMillis) implements Behaviour {
    }

    /** Accepts the request and never answers. */
    public record Hang() implements Behaviour {
    }

    /** Streams {@code eventsBeforeDeath} SSE events, then closes the connection mid-stream. */
    public record DieMidStream(int eventsBeforeDeath, long gapMillis) implements Behaviour {
    }

    /** Takes the request and resets the connection (TCP RST) without answering. */
    public record Reset() implements Behaviour {
    }

    /** Takes the request and resets its connection, as {@link Reset}, once; then behaves as {@code next}. */
    public record ResetThen(Behaviour next) implements Behaviour {
    }

    /**
     * Streams {@code events} events of {@link #floodEvent} as fast as the connection takes them (writing only
     * while it is writable, as a server that honours back-pressure does); {@link #floodEventsSent} counts them.
     */
    public record Flood(int events) implements Behaviour {
    }

    /** A request as received, and when each SSE event of its response was written (System.nanoTime()). */
    public record Received(String method, String uri, HttpHeaders headers, byte[] body, List<Long> eventNanos) {
        public String bodyText() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    private static final String IDLE_VLLM_METRICS = """
            vllm:num_requests_running{engine="0",model_name="m"} 0.0
            vllm:num_requests_waiting{engine="0",model_name="m"} 0.0
            vllm:kv_cache_usage_perc{engine="0",model_name="m"} 0.0
            """;

    private final EventLoopGroup group = new NioEventLoopGroup(1);
    private final Channel server;
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private final AtomicInteger clientsGoneMidResponse = new AtomicInteger();
    private final AtomicInteger connections = new AtomicInteger();
    private final AtomicInteger tlsConnections = new AtomicInteger();
    private final AtomicInteger floodEventsSent = new AtomicInteger();
    private volatile Behaviour behaviour = new Json(200, "{\"ok\":true}");
    private volatile String metrics = IDLE_VLLM_METRICS;

    public TestUpstream() throws InterruptedException {
        this(null);
    }

    /**
     * With {@code tls}, the upstream serves HTTPS and plain HTTP on its one port, telling them apart by the first bytes
     * of each connection; {@link #tlsConnections()} counts the connections that completed a TLS handshake.
     */
    public TestUpstream(SslContext tls) throws InterruptedException {
        server = new ServerBootstrap()
                .group(group)
                .channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        connections.incrementAndGet();
                        if (tls != null) {
                            ch.pipeline().addLast(new OptionalSslHandler(tls), new ChannelInboundHandlerAdapter() {
                                @Override
                                public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
                                    if (evt instanceof SslHandshakeCompletionEvent done && done.isSuccess()) {
                                        tlsConnections.incrementAndGet();
                                    }
                                    ctx.fireUserEventTriggered(evt);
                                }

                                @Override
                                public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                                    ctx.close(); // a client that failed the handshake (what the tests try)
                                }
                            });
                        }
                        ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(1 << 24), new Handler());
                    }
                })
                .bind("127.0.0.1", 0).sync().channel();
    }

    /** Connections that completed a TLS handshake (an upstream made with a TLS context). */
    public int tlsConnections() {
        return tlsConnections.get();
    }

    public int port() {
        return ((java.net.InetSocketAddress) server.localAddress()).getPort();
    }

    public String address() {
        return "127.0.0.1:" + port();
    }

    /** What GET /metrics answers from now on (an idle vLLM server's exposition until told otherwise). */
    public TestUpstream metrics(String exposition) {
        this.metrics = exposition;
        return this;
    }

    public TestUpstream behave(Behaviour b) {
        this.behaviour = b;
        return this;
    }

    public List<Received> received() {
        return received;
    }

    /** Clients (the gateway) that closed the connection while a response was still being produced. */
    public int clientsGoneMidResponse() {
        return clientsGoneMidResponse.get();
    }

    public int connectionsAccepted() {
        return connections.get();
    }

    /** {@link Flood} events the socket took so far, over all connections. */
    public int floodEventsSent() {
        return floodEventsSent.get();
    }

    /** Event {@code i} of a {@link Flood}: 1,024 bytes. */
    public static String floodEvent(int i) {
        String head = "data: {\"i\":" + i + ",\"pad\":\"";
        String tail = "\"}\n\n";
        return head + "x".repeat(1024 - head.length() - tail.length()) + tail;
    }

    public static String sseEvent(int i) {
        return "data: {\"i\":" + i + "}\n\n";
    }

    /** The delta content of chunk {@code i} of a {@link ChatSse} stream. */
    public static String chatChunkContent(int i) {
        return "t" + i + " ";
    }

    private static String chatChunkEvent(String model, int i) {
        return "data: {\"id\":\"chatcmpl-test\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\""
                + model + "\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"" + chatChunkContent(i)
                + "\"},\"finish_reason\":null}]}\n\n";
    }

    @Override
    public void close() {
        server.close().syncUninterruptibly();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    private final class Handler extends SimpleChannelInboundHandler<FullHttpRequest> {
        private boolean responding;
        private int floodNext;
        private int floodEvents;

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
            if (req.uri().equals("/metrics")) {
                // an idle vLLM server, so that the gateway's scrapes neither fail nor count as requests
                byte[] text = metrics.getBytes(StandardCharsets.UTF_8);
                FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                        Unpooled.wrappedBuffer(text));
                response.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain; version=0.0.4")
                        .setInt(HttpHeaderNames.CONTENT_LENGTH, text.length);
                ctx.writeAndFlush(response);
                return;
            }
            byte[] body = new byte[req.content().readableBytes()];
            req.content().getBytes(0, body);
            Received r = new Received(req.method().name(), req.uri(), req.headers().copy(), body,
                    new CopyOnWriteArrayList<>());
            received.add(r);
            Behaviour b = behaviour;
            if (b instanceof Json json) {
                byte[] bytes = json.body().getBytes(StandardCharsets.UTF_8);
                FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                        HttpResponseStatus.valueOf(json.status()), Unpooled.wrappedBuffer(bytes));
                response.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/json")
                        .setInt(HttpHeaderNames.CONTENT_LENGTH, bytes.length);
                json.headers().forEach(response.headers()::set);
                ctx.writeAndFlush(response);
            } else if (b instanceof Sse sse) {
                stream(ctx, r, sse.events(), sse.gapMillis(), false, TestUpstream::sseEvent, "");
            } else if (b instanceof ChatSse chat) {
                stream(ctx, r, chat.events(), chat.gapMillis(), false, i -> chatChunkEvent(chat.model(), i),
                        "data: [DONE]\n\n");
            } else if (b instanceof DieMidStream die) {
                stream(ctx, r, die.eventsBeforeDeath(), die.gapMillis(), true, TestUpstream::sseEvent, "");
            } else if (b instanceof Flood flood) {
                responding = true;
                HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
                head.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/event-stream")
                        .set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
                ctx.write(head);
                floodNext = 0;
                floodEvents = flood.events();
                flood(ctx);
            } else if (b instanceof Reset || b instanceof ResetThen) {
                if (b instanceof ResetThen then) {
                    behaviour = then.next();
                }
                ctx.channel().config().setOption(io.netty.channel.ChannelOption.SO_LINGER, 0);
                ctx.close();
            } else {
                responding = true; // Hang: never answer
            }
        }

        /** Streams {@code events} events from {@code event}; a complete stream ends with {@code trailer}. */
        private void stream(ChannelHandlerContext ctx, Received r, int events, long gapMillis, boolean die,
                IntFunction<String> event, String trailer) {
            responding = true;
            HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
            head.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/event-stream")
                    .set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
            ctx.writeAndFlush(head);
            sendEvent(ctx, r, 0, events, gapMillis, die, event, trailer);
        }

        private void sendEvent(ChannelHandlerContext ctx, Received r, int i, int events, long gapMillis, boolean die,
                IntFunction<String> event, String trailer) {
            if (!ctx.channel().isActive()) {
                return;
            }
            if (i == events) {
                if (die) {
                    ctx.close();
                } else {
                    ctx.writeAndFlush(trailer.isEmpty() ? LastHttpContent.EMPTY_LAST_CONTENT
                            : new DefaultLastHttpContent(Unpooled.copiedBuffer(trailer, StandardCharsets.UTF_8)));
                }
                responding = false;
                return;
            }
            long now = System.nanoTime();
            r.eventNanos().add(now);
            ctx.writeAndFlush(new DefaultHttpContent(Unpooled.copiedBuffer(event.apply(i), StandardCharsets.UTF_8)));
            ctx.executor().schedule(() -> sendEvent(ctx, r, i + 1, events, gapMillis, die, event, trailer), gapMillis,
                    TimeUnit.MILLISECONDS);
        }

        private void flood(ChannelHandlerContext ctx) {
            while (floodNext < floodEvents && ctx.channel().isWritable()) {
                ctx.write(new DefaultHttpContent(Unpooled.copiedBuffer(floodEvent(floodNext++), StandardCharsets.UTF_8)))
                        .addListener(f -> {
                            if (f.isSuccess()) {
                                floodEventsSent.incrementAndGet();
                            }
                        });
            }
            if (floodNext == floodEvents) {
                floodEvents = 0;
                responding = false;
                ctx.write(LastHttpContent.EMPTY_LAST_CONTENT);
            }
            ctx.flush();
        }

        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
            if (ctx.channel().isWritable() && floodNext < floodEvents) {
                flood(ctx);
            }
            ctx.fireChannelWritabilityChanged();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (responding) {
                clientsGoneMidResponse.incrementAndGet();
            }
        }
    }
}
