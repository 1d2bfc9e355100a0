package io.inferencegateway.camel;

import io.netty.channel.ChannelHandlerContext;
import org.apache.camel.AsyncCallback;
import org.apache.camel.Exchange;

/**
 * Continues an exchange whose step finished on another thread (Lettuce's, the JDK HTTP client's, the one that
 * released a queued request) on the event loop of the client's connection, where the rest of the request path runs
 * (request/GatewayRequest: one thread per request, no locks).
 */
final class EventLoopResume {

    private EventLoopResume() {
    }

    static void resume(Exchange exchange, AsyncCallback callback, Runnable step) {
        ChannelHandlerContext ctx = GatewayExchange.client(exchange);
        Runnable finish = () -> {
            try {
                step.run();
            } catch (RuntimeException e) {
                exchange.setException(e);
            }
            callback.done(false);
        };
        if (ctx == null || ctx.executor().inEventLoop()) {
            finish.run();
        } else {
            ctx.executor().execute(finish);
        }
    }
}
