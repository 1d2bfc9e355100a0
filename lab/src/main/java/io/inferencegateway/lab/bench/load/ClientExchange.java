package io.inferencegateway.lab.bench.load;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import io.inferencegateway.lab.bench.load.ChunkReader.Chunk;
import io.inferencegateway.lab.bench.workload.PlannedRequest;
import io.inferencegateway.lab.bench.workload.RequestSpec;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;

/**
 * One request from dispatch to result: waits for a connection, writes the request, follows the SSE
 * stream and records what it measured exactly once, whichever of end, error, timeout or cancel comes
 * first. Lives on the event loop only.
 */
final class ClientExchange implements ConnectionPool.Waiter {

    private static final int ERROR_BODY_LIMIT = 300;
    /** Why the gateway refused a request with 429. */
    static final String DROPPED_REASON = "x-gateway-dropped-reason";

    private final RunState run;
    private final PlannedRequest request;
    private final long intendedWall;
    private final byte[] body;
    private final InetSocketAddress target;
    private final ConnectionPool pool;

    private Channel channel;
    private ScheduledFuture<?> timeout;
    private boolean finished;
    private long writtenWall = -1;
    private int status;
    private String droppedReason = "";
    private String retryAfter = "";
    private boolean keepAlive = true;
    private final SseDecoder sse = new SseDecoder();
    private final StringBuilder errorBody = new StringBuilder();
    private long firstContentWall = -1;
    private long lastContentWall = -1;
    private final LongList gapsWall = new LongList(64);
    private int contentEvents;
    private int usageTokens = -1;
    private boolean sawDone;
    private String streamError;
    private String responseId;
    private String responseModel;
    private int cachedTokens = -1;

    ClientExchange(RunState run, PlannedRequest request, long intendedWall, byte[] body, InetSocketAddress target,
             ConnectionPool pool) {
        this.run = run;
        this.request = request;
        this.intendedWall = intendedWall;
        this.body = body;
        this.target = target;
        this.pool = pool;
    }

    void dispatch() {
        run.started(this);
        long timeoutWall = run.options.toWall(run.options.requestTimeout().toNanos());
        // counted from the intended send time, like every latency here
        long left = Math.max(0, intendedWall + timeoutWall - run.ticker.nanoTime());
        timeout = run.loop.schedule(this::onTimeout, left, TimeUnit.NANOSECONDS);
        pool.acquire(this);
    }

    @Override
    public void onChannel(Channel ch) {
        if (finished) {
            pool.release(ch);
            return;
        }
        channel = ch;
        ch.pipeline().get(StreamHandler.class).begin(this);
        writtenWall = run.ticker.nanoTime();
        ch.writeAndFlush(httpRequest()).addListener(f -> {
            if (!f.isSuccess()) {
                fail(Outcome.CONNECTION_ERROR, "write failed: " + f.cause());
                ch.close();
            }
        });
    }

    @Override
    public void onConnectFailure(Throwable cause) {
        fail(Outcome.CONNECTION_ERROR, "connect to " + target + " failed: " + cause);
    }

    void onHead(HttpResponse head) {
        status = head.status().code();
        keepAlive = HttpUtil.isKeepAlive(head);
        if (status != 200) {
            droppedReason = head.headers().get(DROPPED_REASON, "");
            retryAfter = head.headers().get(HttpHeaderNames.RETRY_AFTER, "");
        }
    }

    void onContent(ByteBuf content, long nowWall) {
        if (status != 200) {
            int take = Math.min(content.readableBytes(), ERROR_BODY_LIMIT - errorBody.length());
            if (take > 0) {
                errorBody.append(content.toString(content.readerIndex(), take, StandardCharsets.UTF_8));
            }
            return;
        }
        sse.feed(content, data -> onEvent(data, nowWall));
    }

    private void onEvent(String data, long nowWall) {
        Chunk chunk = ChunkReader.read(data);
        if (chunk.done()) {
            sawDone = true;
            return;
        }
        if (chunk.error() != null) {
            if (streamError == null) {
                streamError = chunk.error();
            }
            return;
        }
        if (chunk.hasContent()) {
            if (firstContentWall < 0) {
                firstContentWall = nowWall;
            } else {
                gapsWall.add(nowWall - lastContentWall);
            }
            lastContentWall = nowWall;
            contentEvents++;
        }
        if (chunk.completionTokens() >= 0) {
            usageTokens = chunk.completionTokens();
        }
        if (chunk.cachedTokens() >= 0) {
            cachedTokens = chunk.cachedTokens();
        }
        if (responseId == null && chunk.id() != null) {
            responseId = chunk.id();
        }
        if (responseModel == null && chunk.model() != null) {
            responseModel = chunk.model();
        }
    }

    /** The {@code model} the response named (with a model rewrite, the version that served it); null when none. */
    String responseModel() {
        return responseModel;
    }

    /** The streamed completion's {@code id} (the simulator's names the pod that served it); null when none came. */
    String responseId() {
        return responseId;
    }

    /** Prompt tokens the server found in its prefix cache, from the usage chunk; -1 when it did not say. */
    int cachedTokens() {
        return cachedTokens;
    }

    /** The response ended; returns whether the connection may carry another request. */
    boolean onEnd(long nowWall) {
        if (status == 429) {
            finish(Outcome.REFUSED, "HTTP 429" + (droppedReason.isEmpty() ? "" : " (" + droppedReason + ")")
                    + (errorBody.isEmpty() ? "" : ": " + ChunkReader.abbreviate(errorBody.toString())), nowWall);
        } else if (status != 200) {
            finish(Outcome.HTTP_ERROR, "HTTP " + status + (errorBody.isEmpty() ? "" : ": "
                    + ChunkReader.abbreviate(errorBody.toString())), nowWall);
        } else if (streamError != null) {
            finish(Outcome.STREAM_ERROR, streamError, nowWall);
        } else if (contentEvents == 0) {
            finish(Outcome.STREAM_ERROR, "stream had no content", nowWall);
        } else if (!sawDone) {
            finish(Outcome.STREAM_ERROR, "stream ended without [DONE]", nowWall);
        } else {
            finish(Outcome.OK, "", nowWall);
        }
        return keepAlive;
    }

    /** Ends the request without a response end; it gets no end-to-end latency. */
    void fail(Outcome outcome, String error) {
        finish(outcome, error, -1);
    }

    /** Ends a request still running when the drain time is up. */
    void cancel() {
        if (!finished) {
            finish(Outcome.CANCELLED, "still running when the drain timeout ran out", -1);
            closeChannel();
        }
    }

    private void onTimeout() {
        if (!finished) {
            finish(Outcome.TIMEOUT, "no complete response within " + run.options.requestTimeout().toSeconds()
                    + " s (simulated)", -1);
            closeChannel();
        }
    }

    private void closeChannel() {
        if (channel != null) {
            channel.close();
        }
    }

    private void finish(Outcome outcome, String error, long endWall) {
        if (finished) {
            return;
        }
        finished = true;
        if (timeout != null) {
            timeout.cancel(false);
        }
        LoadOptions o = run.options;
        long[] gaps = gapsWall.toArray();
        for (int i = 0; i < gaps.length; i++) {
            gaps[i] = o.toSimulated(gaps[i]);
        }
        RequestSpec spec = request.spec();
        RequestResult result = new RequestResult(request.index(), spec.model(), spec.kind(), spec.key(),
                spec.promptTokens(), spec.maxTokens(), request.offsetNanos(),
                writtenWall < 0 ? -1 : o.toSimulated(writtenWall - intendedWall),
                outcome, status, error,
                firstContentWall < 0 ? -1 : o.toSimulated(firstContentWall - intendedWall),
                gaps,
                endWall < 0 ? -1 : o.toSimulated(endWall - intendedWall),
                usageTokens >= 0 ? usageTokens : contentEvents, contentEvents, usageTokens >= 0, spec.priority(),
                droppedReason, retryAfter, spec.slo());
        run.finished(this, result);
    }

    private FullHttpRequest httpRequest() {
        FullHttpRequest http = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, run.options.path(),
                Unpooled.wrappedBuffer(body));
        http.headers()
                .set(HttpHeaderNames.HOST, target.getHostString() + ":" + target.getPort())
                .set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON)
                .set(HttpHeaderNames.ACCEPT, "text/event-stream")
                .set(HttpHeaderNames.CONTENT_LENGTH, body.length)
                .set("X-Request-Id", RequestResult.requestId(request.index()));
        RequestHeaders.of(request.spec(), run.options.timeScale()).forEach(http.headers()::set);
        return http;
    }
}
