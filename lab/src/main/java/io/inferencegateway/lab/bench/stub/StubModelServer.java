package io.inferencegateway.lab.bench.stub;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.inferencegateway.lab.bench.workload.TokenContract;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;

/**
 * A loopback OpenAI-compatible server that streams chat completions on a known schedule, so that the
 * load generator's measurements can be checked against what the server actually did. It sends the
 * role-only chunk (empty content, as vLLM does) at once, then one token per SSE event, a finish
 * chunk, the usage chunk and {@code [DONE]}. Test hooks: model {@code stub-status-NNN} answers with
 * that status, model {@code stub-drop} closes the connection after two tokens.
 */
public final class StubModelServer implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final StubBehaviour behaviour;
    private final boolean recording;
    private final Queue<ServedRequest> served = new ConcurrentLinkedQueue<>();
    private final ArrayDeque<Runnable> waiting = new ArrayDeque<>();
    private final Channel serverChannel;
    private int busySlots;

    /** Starts on 127.0.0.1 at the given port (0: any free port) on a caller-owned event loop group. */
    public StubModelServer(EventLoopGroup group, int port, StubBehaviour behaviour, boolean recording)
            throws InterruptedException {
        this.behaviour = behaviour;
        this.recording = recording;
        // one event loop for all connections: the slot bookkeeping then needs no locks
        EventLoopGroup loop = group.next();
        this.serverChannel = new ServerBootstrap().group(loop, loop).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(16 << 20), new Handler());
                    }
                })
                .bind("127.0.0.1", port).sync().channel();
    }

    public InetSocketAddress address() {
        return (InetSocketAddress) serverChannel.localAddress();
    }

    /** Requests served so far, in completion order (empty unless recording). */
    public List<ServedRequest> served() {
        return List.copyOf(served);
    }

    @Override
    public void close() {
        serverChannel.close().syncUninterruptibly();
    }

    private final class Handler extends SimpleChannelInboundHandler<FullHttpRequest> {

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
            long received = System.nanoTime();
            boolean keepAlive = HttpUtil.isKeepAlive(request);
            String path = request.uri();
            if (request.method().equals(HttpMethod.GET) && (path.equals("/health") || path.equals("/ready"))) {
                respond(ctx, HttpResponseStatus.OK, "ok", keepAlive);
                return;
            }
            if (!request.method().equals(HttpMethod.POST) || !path.startsWith("/v1/chat/completions")) {
                respond(ctx, HttpResponseStatus.NOT_FOUND, "{\"error\":{\"message\":\"not found\"}}", keepAlive);
                return;
            }
            JsonNode body;
            try {
                body = JSON.readTree(request.content().toString(StandardCharsets.UTF_8));
            } catch (Exception e) {
                respond(ctx, HttpResponseStatus.BAD_REQUEST, "{\"error\":{\"message\":\"bad json\"}}", keepAlive);
                return;
            }
            String model = body.path("model").asText("");
            if (model.startsWith("stub-status-")) {
                int status = Integer.parseInt(model.substring("stub-status-".length()));
                FullHttpResponse refusal = response(HttpResponseStatus.valueOf(status),
                        "{\"error\":{\"message\":\"stub says " + status + "\"}}", keepAlive);
                if (status == 429) {
                    // what the gateway's flow control sends; the reason echoes the priority header it got
                    refusal.headers().set(HttpHeaderNames.RETRY_AFTER, "1").set("x-gateway-dropped-reason",
                            "stub-" + request.headers().get("x-gateway-priority", "none"));
                }
                ctx.writeAndFlush(refusal);
                return;
            }
            int promptChars = 0;
            for (JsonNode m : body.path("messages")) {
                promptChars += 2 + m.path("role").asText().length() + 3 + m.path("content").asText().length() + 1;
            }
            Stream stream = new Stream(ctx, request.headers().get("X-Request-Id", ""), model,
                    body.path("max_tokens").asInt(16), promptChars, received, keepAlive);
            if (busySlots < behaviour.slots()) {
                busySlots++;
                stream.start();
            } else {
                waiting.addLast(stream::start);
            }
        }

        private void respond(ChannelHandlerContext ctx, HttpResponseStatus status, String text, boolean keepAlive) {
            ctx.writeAndFlush(response(status, text, keepAlive));
        }

        private FullHttpResponse response(HttpResponseStatus status, String text, boolean keepAlive) {
            FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                    Unpooled.copiedBuffer(text, StandardCharsets.UTF_8));
            response.headers().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON)
                    .setInt(HttpHeaderNames.CONTENT_LENGTH, response.content().readableBytes());
            HttpUtil.setKeepAlive(response, keepAlive);
            return response;
        }
    }

    private void freeSlot() {
        Runnable next = waiting.pollFirst();
        if (next != null) {
            next.run();
        } else {
            busySlots--;
        }
    }

    /** One streamed response, driven by timers on the server's event loop. */
    private final class Stream {
        private final ChannelHandlerContext ctx;
        private final String requestId;
        private final String model;
        private final int maxTokens;
        private final int promptChars;
        private final long received;
        private final boolean keepAlive;
        private final long[] writes;
        private long firstDue;
        private int sent;
        private boolean over;
        private final ChannelFutureListener onClose = f -> end();

        Stream(ChannelHandlerContext ctx, String requestId, String model, int maxTokens, int promptChars,
               long received, boolean keepAlive) {
            this.ctx = ctx;
            this.requestId = requestId;
            this.model = model;
            this.maxTokens = Math.max(1, maxTokens);
            this.promptChars = promptChars;
            this.received = received;
            this.keepAlive = keepAlive;
            this.writes = new long[this.maxTokens];
        }

        void start() {
            if (!ctx.channel().isActive()) {
                freeSlot();
                return;
            }
            ctx.channel().closeFuture().addListener(onClose);
            HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
            head.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/event-stream")
                    .set(HttpHeaderNames.CACHE_CONTROL, "no-cache")
                    .set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
            HttpUtil.setKeepAlive(head, keepAlive);
            ctx.write(head);
            ctx.writeAndFlush(event(chunk("{\"role\":\"assistant\",\"content\":\"\"}", null)));
            long now = System.nanoTime();
            firstDue = now + behaviour.toWall(behaviour.firstTokenNanos(promptChars / TokenContract.CHARS_PER_TOKEN));
            schedule(firstDue);
        }

        private void schedule(long due) {
            ctx.executor().schedule(this::nextToken, Math.max(0, due - System.nanoTime()), TimeUnit.NANOSECONDS);
        }

        private void nextToken() {
            if (over) {
                return;
            }
            if ("stub-drop".equals(model) && sent == 2) {
                ctx.close();
                return;
            }
            writes[sent] = System.nanoTime();
            ctx.writeAndFlush(event(chunk("{\"content\":\"tok" + sent + " \"}", null)));
            sent++;
            if (sent < maxTokens) {
                // due times from the first token's, so timer lateness does not add up over a stream
                schedule(firstDue + behaviour.toWall(behaviour.interToken().toNanos()) * sent);
                return;
            }
            int promptTokens = promptChars / TokenContract.CHARS_PER_TOKEN;
            if (recording) {
                // before the end of the response goes out, so a client that has seen the end finds the record
                served.add(new ServedRequest(requestId, model, maxTokens, promptChars, promptTokens, received,
                        firstDue, writes.clone()));
            }
            ctx.write(event(chunk("{}", "\"length\"")));
            ctx.write(event("{\"id\":\"" + id() + "\",\"object\":\"chat.completion.chunk\",\"model\":\"" + model
                    + "\",\"choices\":[],\"usage\":{\"prompt_tokens\":" + promptTokens + ",\"completion_tokens\":"
                    + maxTokens + ",\"total_tokens\":" + (promptTokens + maxTokens) + "}}"));
            ctx.write(event("[DONE]"));
            ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT).addListener(f -> {
                if (!keepAlive) {
                    ctx.close();
                }
            });
            end();
        }

        private void end() {
            if (!over) {
                over = true;
                ctx.channel().closeFuture().removeListener(onClose);
                freeSlot();
            }
        }

        private String id() {
            return "chatcmpl-" + (requestId.isEmpty() ? "stub" : requestId);
        }

        private String chunk(String delta, String finishReason) {
            return "{\"id\":\"" + id() + "\",\"object\":\"chat.completion.chunk\",\"model\":\"" + model
                    + "\",\"choices\":[{\"index\":0,\"delta\":" + delta + ",\"finish_reason\":" + finishReason + "}]}";
        }

        private DefaultHttpContent event(String data) {
            ByteBuf buf = Unpooled.copiedBuffer("data: " + data + "\n\n", StandardCharsets.UTF_8);
            return new DefaultHttpContent(buf);
        }
    }
}
