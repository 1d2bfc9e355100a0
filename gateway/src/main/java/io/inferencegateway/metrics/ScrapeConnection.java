package io.inferencegateway.metrics;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeUnit;

import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.proxy.UpstreamTls;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseDecoder;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;

/**
 * The kept-alive connection to one pod's metrics endpoint, and the one GET on it at a time. Everything here runs on
 * the connection's event loop; other threads only hand work over ({@link #fetch}, {@link #retire},
 * {@link #shutdown}). The request's bytes are prepared once; the body is gathered into one heap buffer from the
 * channel's allocator, so the dialect parses it in place (EngineDialect#read takes an array range).
 */
final class ScrapeConnection {

    private final ScrapeClient client;
    private final Endpoint endpoint;
    private final EventLoop loop;
    private final UpstreamTls tls; // null: plain HTTP

    private Channel channel; // connected or connecting; null when there is none
    private String requestPath;
    private String requestAuthorization;
    private ByteBuf request; // the GET for requestPath, never released: written as duplicates
    private Exchange current; // the GET in flight, or null
    private boolean retired;

    /** One GET: who hears how it ends, its deadline, and the response so far. */
    private static final class Exchange {
        final ScrapeClient.Answer answer;
        ScheduledFuture<?> deadline;
        boolean reusedConnection;
        boolean retried;
        boolean responseStarted;
        long sentNanos;
        int status;
        boolean keepAlive;
        ByteBuf body; // null while no 200 answer is being read

        Exchange(ScrapeClient.Answer answer) {
            this.answer = answer;
        }
    }

    ScrapeConnection(ScrapeClient client, Endpoint endpoint, UpstreamTls tls, EventLoop loop) {
        this.client = client;
        this.endpoint = endpoint;
        this.tls = tls;
        this.loop = loop;
    }

    /** How the connection speaks HTTPS, or null for plain HTTP. */
    UpstreamTls tls() {
        return tls;
    }

    /**
     * Starts a GET of {@code path}, with an {@code Authorization} header unless {@code authorization} is null; from
     * any thread. The caller starts at most one at a time (MetricsScraper).
     */
    void fetch(String path, String authorization, ScrapeClient.Answer answer) {
        loop.execute(() -> start(path, authorization, answer));
    }

    /** The endpoint left every pool: close the connection once the GET in flight, if any, has ended. */
    void retire() {
        loop.execute(() -> {
            retired = true;
            if (current == null) {
                closeChannel();
            }
        });
    }

    /** The client is closing: fail the GET in flight and close the connection. */
    void shutdown() {
        loop.execute(() -> {
            retired = true;
            fail(new CancellationException("the scraper is closed"));
            closeChannel();
        });
    }

    /** Whether a connection is open right now; any thread. */
    boolean isOpen() {
        Channel ch = channel;
        return ch != null && ch.isActive();
    }

    // ---- on the event loop ----------------------------------------------------------------------

    private void start(String path, String authorization, ScrapeClient.Answer answer) {
        if (current != null) { // the scraper's one-at-a-time rule was broken: never mix two answers on one wire
            answer.failed(new IllegalStateException("a scrape of " + endpoint + " is already in flight"));
            return;
        }
        if (!path.equals(requestPath) || !Objects.equals(authorization, requestAuthorization)) {
            requestPath = path;
            requestAuthorization = authorization;
            request = Unpooled.unreleasableBuffer(Unpooled.wrappedBuffer(("GET " + path + " HTTP/1.1\r\n"
                    + "Host: " + endpoint + "\r\n"
                    + "Accept: text/plain\r\n"
                    + (authorization == null ? "" : "Authorization: " + authorization + "\r\n")
                    + "User-Agent: inference-gateway\r\n\r\n").getBytes(StandardCharsets.US_ASCII)));
        }
        Exchange e = new Exchange(answer);
        current = e;
        e.deadline = loop.schedule(() -> timeOut(e), client.timeoutNanos(), TimeUnit.NANOSECONDS);
        if (channel != null && channel.isActive()) {
            e.reusedConnection = true;
            send();
        } else {
            connect();
        }
    }

    private void connect() {
        closeChannel();
        ChannelFuture f = client.bootstrap().clone(loop).handler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                if (tls != null) { // the GET waits in it until the handshake is done; a failed one fails the GET below
                    ch.pipeline().addLast(tls.newHandler(ch.alloc(), endpoint, client.timeoutNanos() / 1_000_000));
                }
                ch.pipeline().addLast(new HttpResponseDecoder(4096, 8192, 64 * 1024), new ResponseReader(ch));
            }
        }).connect(endpoint.host(), endpoint.port());
        Channel ch = f.channel();
        channel = ch;
        f.addListener(done -> {
            if (ch != channel) {
                return; // given up meanwhile (timed out, or closed); closing it was done then
            }
            if (done.isSuccess()) {
                if (tls != null) {
                    ch.pipeline().get(SslHandler.class).handshakeFuture().addListener(handshake -> {
                        if (!handshake.isSuccess() && ch == channel) {
                            fail(handshake.cause()); // before the close it causes, so the GET fails with the reason
                        }
                    });
                }
                send();
            } else {
                channel = null;
                fail(done.cause());
            }
        });
    }

    private void send() {
        if (current != null) {
            current.sentNanos = System.nanoTime(); // after connecting: the round trip leaves the handshake out
            channel.writeAndFlush(request.duplicate(), channel.voidPromise()); // a failure reaches exceptionCaught
        }
    }

    private void timeOut(Exchange e) {
        if (current != e) {
            return;
        }
        current = null;
        releaseBody(e);
        closeChannel(); // the server may still answer; that answer must not be read as the next one's
        e.answer.timedOut();
        closeIfRetired();
    }

    private void fail(Throwable cause) {
        Exchange e = current;
        if (e == null) {
            return;
        }
        current = null;
        e.deadline.cancel(false);
        releaseBody(e);
        closeChannel();
        e.answer.failed(cause);
        closeIfRetired();
    }

    private void complete() {
        Exchange e = current;
        current = null;
        e.deadline.cancel(false);
        if (!e.keepAlive) {
            closeChannel();
        }
        ByteBuf body = e.body;
        e.body = null;
        try {
            if (body == null) {
                e.answer.answered(e.status, new byte[0], 0, 0);
            } else {
                e.answer.answered(e.status, body.array(), body.arrayOffset() + body.readerIndex(), body.readableBytes());
            }
        } finally {
            if (body != null) {
                body.release();
            }
        }
        closeIfRetired();
    }

    private void closeIfRetired() {
        if (retired && current == null) {
            closeChannel();
        }
    }

    private void closeChannel() {
        Channel ch = channel;
        channel = null;
        if (ch != null) {
            ch.close();
        }
    }

    private static void releaseBody(Exchange e) {
        if (e.body != null) {
            e.body.release();
            e.body = null;
        }
    }

    private void onResponse(HttpResponse response) {
        Exchange e = current;
        e.responseStarted = true;
        e.answer.headersAfter(System.nanoTime() - e.sentNanos);
        e.status = response.status().code();
        e.keepAlive = HttpUtil.isKeepAlive(response);
        if (e.status != 200) {
            return; // read and dropped, so that the connection can be kept
        }
        long length = HttpUtil.getContentLength(response, -1L);
        int max = client.maxBodyBytes();
        if (length > max) {
            fail(tooLarge());
            return;
        }
        e.body = channel.alloc().heapBuffer(length >= 0 ? (int) length : Math.min(max, 16 * 1024), max);
    }

    private void onContent(HttpContent content) {
        Exchange e = current;
        if (e.body != null) {
            ByteBuf part = content.content();
            if (part.readableBytes() > e.body.maxWritableBytes()) {
                fail(tooLarge());
                return;
            }
            e.body.writeBytes(part);
        }
        if (content instanceof LastHttpContent) {
            complete();
        }
    }

    private IOException tooLarge() {
        return new IOException("response body larger than " + client.maxBodyBytes() + " bytes");
    }

    /** Reads one channel's responses into the exchange in flight; events of a channel given up are ignored. */
    private final class ResponseReader extends ChannelInboundHandlerAdapter {
        private final Channel ch;

        ResponseReader(Channel ch) {
            this.ch = ch;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                if (ch != channel) {
                    return;
                }
                if (current == null) { // nothing was asked: the wire is out of step
                    closeChannel();
                    return;
                }
                HttpObject http = (HttpObject) msg;
                if (http.decoderResult().isFailure()) {
                    fail(http.decoderResult().cause());
                    return;
                }
                if (msg instanceof HttpResponse response) {
                    onResponse(response);
                }
                if (msg instanceof HttpContent content && current != null) {
                    onContent(content);
                }
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (ch != channel) {
                return;
            }
            channel = null;
            Exchange e = current;
            if (e != null && e.reusedConnection && !e.responseStarted && !e.retried) {
                // the server closed its idle end of a kept-alive connection as the GET went out: once more, afresh
                e.retried = true;
                e.reusedConnection = false;
                connect();
            } else {
                fail(new ClosedChannelException());
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (ch == channel) {
                fail(cause);
                closeChannel();
            } else {
                ctx.close();
            }
        }
    }
}
