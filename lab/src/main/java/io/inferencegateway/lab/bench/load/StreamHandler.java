package io.inferencegateway.lab.bench.load;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.LastHttpContent;

/**
 * The per-connection end of the pipeline: stamps each arriving piece of the response with the clock
 * before any parsing, and hands it to the exchange the connection is serving at the moment.
 */
final class StreamHandler extends SimpleChannelInboundHandler<HttpObject> {

    private final Ticker ticker;
    private final ConnectionPool pool;
    private ClientExchange current;

    StreamHandler(Ticker ticker, ConnectionPool pool) {
        this.ticker = ticker;
        this.pool = pool;
    }

    void begin(ClientExchange exchange) {
        current = exchange;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, HttpObject msg) {
        long now = ticker.nanoTime();
        ClientExchange exchange = current;
        if (exchange == null) {
            return; // the rest of a response whose request already timed out
        }
        if (msg.decoderResult().isFailure()) {
            current = null;
            exchange.fail(Outcome.STREAM_ERROR, "malformed HTTP response: " + msg.decoderResult().cause());
            ctx.close();
            return;
        }
        if (msg instanceof HttpResponse head) {
            exchange.onHead(head);
        }
        if (msg instanceof HttpContent content) {
            exchange.onContent(content.content(), now);
        }
        if (msg instanceof LastHttpContent) {
            current = null;
            if (exchange.onEnd(now)) {
                pool.release(ctx.channel());
            } else {
                ctx.close();
            }
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        ClientExchange exchange = current;
        current = null;
        if (exchange != null) {
            exchange.fail(Outcome.CONNECTION_ERROR, "connection closed before the response ended");
        }
        super.channelInactive(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ClientExchange exchange = current;
        current = null;
        if (exchange != null) {
            exchange.fail(Outcome.CONNECTION_ERROR, String.valueOf(cause));
        }
        ctx.close();
    }
}
