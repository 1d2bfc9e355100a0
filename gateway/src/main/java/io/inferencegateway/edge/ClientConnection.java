package io.inferencegateway.edge;

import java.util.concurrent.TimeUnit;

import io.inferencegateway.edge.ClientConnections.Wait;
import io.inferencegateway.openai.OpenAiErrors;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpStatusClass;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.netty.handler.flush.FlushConsolidationHandler;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;

/**
 * One client connection of the ingress: counts it against the connection cap, closes it when the
 * client keeps the gateway waiting too long, and answers a request that is not valid HTTP in the
 * OpenAI error shape. Two handlers share this state: {@link #http()}, which netty-http places right after
 * the HTTP encoder (it is the ingress's {@code encoders}, see {@link ClientConnections}), so it sees requests
 * come in decoded and responses go out; and {@link #wire()}, which {@code http()} puts first in the pipeline
 * when it is added, so it sees every byte the client sends. {@code http()} also swaps the request decoder for
 * a {@link StrictRequestDecoder}, and puts Netty's {@link FlushConsolidationHandler} in front of everything, so that
 * the flushes of one event loop task reach the socket as one write.
 *
 * <p>The connection is always in one of four phases: waiting for a request header, for more of a
 * request body, for the next request (idle), or answering. Answering has no timeout of the gateway's
 * own: a streamed response can pause as long as the pool's {@code routeTimeout} allows. Everything runs
 * on the connection's event loop, with at most one scheduled check at a time.
 */
final class ClientConnection {

    private enum ConnectionPhase { HEADER, BODY, ANSWERING, IDLE }

    private final ClientConnections shared;
    private final Wire wire = new Wire();
    private final Http http = new Http();

    private ChannelHandlerContext wireCtx;
    private boolean admitted;
    private ConnectionPhase phase = ConnectionPhase.HEADER;
    private long phaseStartNanos;
    private long lastReadNanos;
    /** requests received whose response has not been written in full */
    private int unanswered;
    private boolean refusing;
    private ScheduledFuture<?> check;
    private long checkDueNanos;

    ClientConnection(ClientConnections shared) {
        this.shared = shared;
    }

    ChannelHandler wire() {
        return wire;
    }

    ChannelHandler http() {
        return http;
    }

    /** First in the pipeline: the cap, and when the client last sent anything. */
    private final class Wire extends ChannelInboundHandlerAdapter {
        @Override
        public void channelActive(ChannelHandlerContext ctx) throws Exception {
            wireCtx = ctx;
            admitted = shared.admit();
            ctx.fireChannelActive();
            if (!admitted) {
                // over the cap: accepted only to be closed, before anything is read
                ctx.close();
                return;
            }
            long now = System.nanoTime();
            lastReadNanos = now;
            enter(ConnectionPhase.HEADER, now);
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            long now = System.nanoTime();
            lastReadNanos = now;
            if (phase == ConnectionPhase.IDLE) {
                enter(ConnectionPhase.HEADER, now);
            }
            ctx.fireChannelRead(msg);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) throws Exception {
            if (check != null) {
                check.cancel(false);
                check = null;
            }
            if (admitted) {
                admitted = false;
                shared.closed();
            }
            ctx.fireChannelInactive();
        }
    }

    /** Between the codec and the aggregator: requests in, responses out. */
    private final class Http extends ChannelDuplexHandler {
        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            // added while netty-http builds the pipeline (HttpServerInitializerFactory), before the channel is active
            ChannelPipeline pipeline = ctx.pipeline();
            pipeline.addFirst("client-connection", wire);
            // a relayed response's head and body are written apart (the head when the exchange completes, the body
            // as the upstream read hands it on, both in the same event loop task): flushed once, at the end of that
            // task, they leave in one write instead of two, the syscall that costs most per request on loopback
            pipeline.addFirst("flush-consolidation", new FlushConsolidationHandler(
                    FlushConsolidationHandler.DEFAULT_EXPLICIT_FLUSH_AFTER_FLUSHES, true));
            pipeline.replace("decoder", "decoder", shared.newDecoder());
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (refusing) {
                ReferenceCountUtil.release(msg);
                return;
            }
            if (msg instanceof HttpObject o && o.decoderResult().isFailure()) {
                refuse(ctx, msg, decodeFailure(o.decoderResult()));
                return;
            }
            if (msg instanceof HttpRequest request) {
                Refusal bad = framingProblem(request.headers());
                if (bad != null) {
                    refuse(ctx, msg, bad);
                    return;
                }
                unanswered++;
                enter(ConnectionPhase.BODY, System.nanoTime());
            }
            if (msg instanceof LastHttpContent && phase == ConnectionPhase.BODY) {
                enter(ConnectionPhase.ANSWERING, System.nanoTime());
            }
            ctx.fireChannelRead(msg);
        }

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            // a 100 Continue is no answer yet
            boolean interim = msg instanceof HttpResponse r && r.status().codeClass() == HttpStatusClass.INFORMATIONAL;
            if (msg instanceof LastHttpContent && !interim) {
                promise = promise.unvoid();
                promise.addListener(f -> answered());
            }
            ctx.write(msg, promise);
        }
    }

    /** The last byte of a response was written (or failed to be). */
    private void answered() {
        if (unanswered > 0) {
            unanswered--;
        }
        if (unanswered == 0 && phase == ConnectionPhase.ANSWERING) {
            enter(ConnectionPhase.IDLE, System.nanoTime());
        }
    }

    private void enter(ConnectionPhase next, long now) {
        phase = next;
        phaseStartNanos = now;
        long deadline = deadline();
        if (deadline != NONE) {
            ensureCheckBy(deadline, now);
        }
    }

    private static final long NONE = Long.MIN_VALUE;

    /** When the current wait runs out, or NONE when the gateway is not waiting for the client. */
    private long deadline() {
        return switch (phase) {
            case HEADER -> after(phaseStartNanos, Wait.HEADER);
            case BODY -> after(lastReadNanos, Wait.BODY);
            case IDLE -> after(phaseStartNanos, Wait.IDLE);
            case ANSWERING -> NONE;
        };
    }

    private long after(long start, Wait wait) {
        long timeout = shared.timeoutNanos(wait);
        return timeout <= 0 ? NONE : start + timeout;
    }

    /** Keeps one check scheduled, no later than {@code deadline}; a check that finds time left schedules the next. */
    private void ensureCheckBy(long deadline, long now) {
        if (check != null && checkDueNanos - deadline <= 0) {
            return;
        }
        if (check != null) {
            check.cancel(false);
        }
        checkDueNanos = deadline;
        check = wireCtx.executor().schedule(this::checkWait, Math.max(0, deadline - now), TimeUnit.NANOSECONDS);
    }

    private void checkWait() {
        check = null;
        if (!wireCtx.channel().isActive()) {
            return;
        }
        long deadline = deadline();
        if (deadline == NONE) {
            return;
        }
        long now = System.nanoTime();
        if (now - deadline < 0) {
            ensureCheckBy(deadline, now);
            return;
        }
        switch (phase) {
            case HEADER -> {
                // nothing useful to answer to half a header (or none): close, as nginx does
                shared.timedOut(Wait.HEADER);
                wireCtx.close();
            }
            case IDLE -> {
                shared.timedOut(Wait.IDLE);
                wireCtx.close();
            }
            case BODY -> {
                shared.timedOut(Wait.BODY);
                if (unanswered == 1) {
                    // the only request is this one, so no response is under way: say why before closing
                    ChannelHandlerContext httpCtx = wireCtx.pipeline().context(http);
                    refuse(httpCtx, null, new Refusal(HttpResponseStatus.REQUEST_TIMEOUT, "request_timeout",
                            "The request body did not arrive in time (gateway.http.bodyTimeout)"));
                } else {
                    wireCtx.close();
                }
            }
            case ANSWERING -> {
            }
        }
    }

    /** A status, error code and message for a request the gateway refuses at the HTTP level. */
    record Refusal(HttpResponseStatus status, String code, String message) {
    }

    private static Refusal decodeFailure(DecoderResult result) {
        Throwable cause = result.cause();
        if (cause instanceof TooLongHttpHeaderException) {
            return new Refusal(HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE, "request_headers_too_large",
                    "Request headers are larger than the gateway accepts");
        }
        if (cause instanceof TooLongHttpLineException) {
            return new Refusal(HttpResponseStatus.REQUEST_URI_TOO_LONG, "request_line_too_long",
                    "Request line is longer than the gateway accepts");
        }
        if (cause instanceof StrictRequestDecoder.ConflictingFraming) {
            return conflictingFraming();
        }
        String why = cause == null || cause.getMessage() == null ? "" : ": " + cause.getMessage();
        return new Refusal(HttpResponseStatus.BAD_REQUEST, "invalid_http_request",
                "Malformed HTTP request" + (why.length() > 200 ? why.substring(0, 200) : why));
    }

    /** What a decoded request's headers get wrong about where it ends, or null. */
    private static Refusal framingProblem(HttpHeaders headers) {
        String te = headers.get(HttpHeaderNames.TRANSFER_ENCODING);
        if (te != null) {
            if (headers.contains(HttpHeaderNames.CONTENT_LENGTH)) {
                return conflictingFraming();
            }
            if (headers.getAll(HttpHeaderNames.TRANSFER_ENCODING).size() != 1
                    || !HttpHeaderValues.CHUNKED.contentEqualsIgnoreCase(te.trim())) {
                return new Refusal(HttpResponseStatus.BAD_REQUEST, "invalid_http_request",
                        "Transfer-Encoding must be chunked, got '" + te + "'");
            }
        }
        if (!headers.contains(HttpHeaderNames.HOST)) {
            return new Refusal(HttpResponseStatus.BAD_REQUEST, "invalid_http_request", "Request has no Host header");
        }
        return null;
    }

    private static Refusal conflictingFraming() {
        return new Refusal(HttpResponseStatus.BAD_REQUEST, "invalid_http_request",
                "Request has both Content-Length and Transfer-Encoding");
    }

    /** Answers {@code refusal} in the OpenAI error shape and closes; nothing more is read. */
    private void refuse(ChannelHandlerContext ctx, Object msg, Refusal refusal) {
        refusing = true;
        ReferenceCountUtil.release(msg);
        // drop what the aggregator holds of this request, so the close does not look premature to it
        if (ctx.pipeline().get("aggregator") != null) {
            ctx.pipeline().remove("aggregator");
        }
        byte[] json = OpenAiErrors.body(refusal.message(), "invalid_request_error", null, refusal.code());
        ByteBuf content = Unpooled.wrappedBuffer(json);
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, refusal.status(), content);
        response.headers()
                .set(HttpHeaderNames.CONTENT_TYPE, "application/json")
                .setInt(HttpHeaderNames.CONTENT_LENGTH, json.length)
                .set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        // from this handler towards the encoder, so it is not counted as a response to a request
        ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
    }
}
