package io.inferencegateway.proxy;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import javax.net.ssl.SSLException;

import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.GatewayError;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;

/**
 * One request/response exchange with a model server. Runs on its connection's event loop; the only
 * calls from other threads are {@link #cancel()} and the hand-over in {@link #dispatch}.
 */
public final class UpstreamCall implements StreamingBody.Upstream {

    private final UpstreamClient client;
    private final Endpoint endpoint;
    private final FullHttpRequest request;
    private final long timeoutNanos;
    private final UpstreamListener listener;
    private final EventLoop loop;
    private final UpstreamTls tls;
    private final AtomicBoolean answered = new AtomicBoolean();
    private final AtomicBoolean released = new AtomicBoolean();

    private volatile Channel channel;
    private UpstreamHandler handler; // the channel's; written before channel, read after it
    private volatile boolean cancelled;
    private boolean reused;
    private boolean retried;
    private StreamingBody body;
    private boolean done;
    private boolean keepAlive = true;
    private volatile boolean paused;
    private long lastActivityNanos;
    private volatile long resumedNanos; // set on the client's loop, which may be another
    private ScheduledFuture<?> timer;

    UpstreamCall(UpstreamClient client, Endpoint endpoint, FullHttpRequest request, long timeoutNanos,
            UpstreamListener listener, EventLoop loop, UpstreamTls tls) {
        this.client = client;
        this.loop = loop;
        this.tls = tls;
        this.endpoint = endpoint;
        this.request = request;
        this.timeoutNanos = timeoutNanos;
        this.listener = listener;
    }

    public Endpoint endpoint() {
        return endpoint;
    }

    /** The event loop the call and its connection run on. */
    EventLoop loop() {
        return loop;
    }

    /** How the call speaks HTTPS, or null for plain HTTP. */
    UpstreamTls tls() {
        return tls;
    }

    /** The client went away: stop the model server's work by closing the connection. Any thread. */
    public void cancel() {
        cancelled = true;
        Channel ch = channel;
        if (ch != null) {
            ch.eventLoop().execute(this::abortOnLoop);
        }
    }

    // ---- lifecycle ------------------------------------------------------------------------------

    void dispatch(UpstreamHandler h, boolean pooled) {
        Channel ch = h.channel();
        handler = h;
        channel = ch;
        reused = pooled;
        if (ch.eventLoop().inEventLoop()) {
            start();
        } else {
            ch.eventLoop().execute(this::start);
        }
    }

    private void start() {
        Channel ch = channel;
        if (cancelled) {
            client.recycle(endpoint, tls, handler);
            fail(UpstreamFailure.Stage.CANCELLED, "cancelled before sending");
            return;
        }
        if (!ch.isActive()) {
            retryOrFail(null);
            return;
        }
        UpstreamHandler h = handler;
        h.begin(this);
        ch.config().setAutoRead(true);
        lastActivityNanos = System.nanoTime();
        resumedNanos = lastActivityNanos;
        scheduleTimer(timeoutNanos);
        ch.writeAndFlush(sendable()).addListener(f -> {
            // the connection may already have reported its close (and this call moved on): act once
            if (!f.isSuccess() && !done && h.carries(this)) {
                h.end();
                ch.close();
                retryOrFail(f.cause());
            }
        });
    }

    /**
     * The request to write: its own view of the body, so that a retry can send it again, and the same headers (the
     * encoder only reads them; {@code retainedDuplicate()} would copy them and the trailers for every call).
     */
    private FullHttpRequest sendable() {
        return new DefaultFullHttpRequest(request.protocolVersion(), request.method(), request.uri(),
                request.content().retainedDuplicate(), request.headers(), request.trailingHeaders(), false);
    }

    void connectFailed(Throwable cause) {
        fail(UpstreamFailure.Stage.CONNECT, describe(cause));
    }

    /**
     * The server could not be verified, or the handshake broke or ran out of time: nothing was sent, so, as for a
     * refused connection, another endpoint may be tried.
     */
    void handshakeFailed(Throwable cause) {
        if (cancelled) {
            fail(UpstreamFailure.Stage.CANCELLED, "cancelled");
            return;
        }
        Throwable root = cause;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String why = root == cause ? describe(cause) : describe(cause) + " (" + describe(root) + ")";
        fail(UpstreamFailure.Stage.CONNECT, "TLS handshake with " + endpoint + " failed: " + why);
    }

    void onHeaders(HttpResponse head) {
        if (done) {
            return;
        }
        lastActivityNanos = System.nanoTime();
        String type = head.headers().get(HttpHeaderNames.CONTENT_TYPE);
        boolean eventStream = type != null && type.regionMatches(true, 0, "text/event-stream", 0, 17);
        body = new StreamingBody(this, eventStream);
        keepAlive = HttpUtil.isKeepAlive(head);
        if (answered.compareAndSet(false, true)) {
            releaseRequest();
            listener.onResponse(head, body);
        }
    }

    void onContent(HttpContent content) {
        if (done || body == null) {
            content.release();
            return;
        }
        lastActivityNanos = System.nanoTime();
        if (content.content().isReadable()) {
            body.offer(content.content());
        } else {
            content.release();
        }
        if (content instanceof LastHttpContent) {
            done = true;
            cancelTimer();
            body.finish();
            Channel ch = channel;
            handler.end();
            if (keepAlive && !cancelled) {
                client.recycle(endpoint, tls, handler);
            } else {
                ch.close();
            }
        }
    }

    /** A read batch from the connection ended. */
    void onReadComplete() {
        if (body != null) {
            body.readComplete();
        }
    }

    /** The connection closed or broke while this call was on it. */
    void onClosed(Throwable cause) {
        if (done) {
            return;
        }
        if (body == null) {
            if (cancelled) {
                fail(UpstreamFailure.Stage.CANCELLED, "cancelled");
            } else if (tlsRefused(cause)) {
                // with TLS 1.3 a server checks the client's certificate after the client's handshake is over: its
                // refusal arrives as the request goes out, before any HTTP reached the server
                handshakeFailed(cause);
            } else {
                retryOrFail(cause);
            }
            return;
        }
        done = true;
        cancelTimer();
        body.fail(GatewayError.upstreamBroken());
    }

    /**
     * A pooled connection may have been closed by the server just as it was reused; the request never
     * reached it, so one retry on a fresh connection is safe. Otherwise the server broke the call.
     */
    private void retryOrFail(Throwable cause) {
        if (reused && !retried && !cancelled) {
            retried = true;
            reused = false;
            cancelTimer();
            client.connect(this);
            return;
        }
        fail(UpstreamFailure.Stage.BROKEN, cause == null ? "connection closed before the response" : describe(cause));
    }

    private void abortOnLoop() {
        if (done) {
            return;
        }
        done = true;
        cancelTimer();
        Channel ch = channel;
        if (handler != null) { // null: the connection was gone when it was handed over, a retry is connecting
            handler.end();
        }
        ch.close();
        if (body == null) {
            fail(UpstreamFailure.Stage.CANCELLED, "cancelled");
        }
    }

    private void fail(UpstreamFailure.Stage kind, String detail) {
        done = true;
        cancelTimer();
        if (answered.compareAndSet(false, true)) {
            releaseRequest();
            listener.onFailure(new UpstreamFailure(kind, detail));
        }
    }

    // ---- timeouts -------------------------------------------------------------------------------

    private void scheduleTimer(long delayNanos) {
        timer = channel.eventLoop().schedule(this::checkTimeout, delayNanos, TimeUnit.NANOSECONDS);
    }

    private void cancelTimer() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
    }

    private void checkTimeout() {
        timer = null;
        if (done) {
            return;
        }
        // a read resumed after a long pause counts from the resume: the timer may run before the first read does
        long last = lastActivityNanos;
        long resumed = resumedNanos;
        long idle = System.nanoTime() - (resumed - last > 0 ? resumed : last);
        if (idle < timeoutNanos || paused) {
            // activity since, or a slow client holds reading back: not the server's fault
            scheduleTimer(paused ? timeoutNanos : timeoutNanos - idle);
            return;
        }
        Channel ch = channel;
        handler.end();
        ch.close();
        if (body == null) {
            fail(UpstreamFailure.Stage.TIMEOUT, "no response within the route timeout");
        } else {
            done = true;
            body.fail(GatewayError.upstreamTimeout());
        }
    }

    // ---- back-pressure (StreamingBody.Upstream) -------------------------------------------------

    @Override
    public void pauseReading() {
        paused = true;
        channel.config().setAutoRead(false);
    }

    @Override
    public void resumeReading() {
        resumedNanos = System.nanoTime();
        paused = false;
        channel.config().setAutoRead(true);
    }

    private void releaseRequest() {
        if (released.compareAndSet(false, true)) {
            request.release();
        }
    }

    private static boolean tlsRefused(Throwable cause) {
        for (Throwable t = cause; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SSLException) {
                return true;
            }
        }
        return false;
    }

    private static String describe(Throwable cause) {
        return cause == null ? "unknown" : cause.getClass().getSimpleName() + ": " + cause.getMessage();
    }
}
