package io.inferencegateway.camel;

import java.util.concurrent.CompletableFuture;

import io.netty.channel.ChannelHandlerContext;
import org.apache.camel.AsyncCallback;
import org.apache.camel.Exchange;

/**
 * Continues an exchange whose step finished on another thread (Lettuce's for a rate limit on Redis, the JDK HTTP
 * client's for a JWKS fetch) on the event loop of the client's connection, where the rest of the request path runs
 * (request/GatewayRequest: one thread per request, no locks).
 */
final class EventLoopResume {

    private EventLoopResume() {
    }

    /**
     * Runs {@code step} once {@code future} is done, as an asynchronous processor's rest: at once when it is done
     * already (returns true: the exchange goes on in place), else on the client connection's event loop when it
     * completes (returns false). An exception {@code step} throws becomes the exchange's.
     */
    static boolean afterward(CompletableFuture<?> future, Exchange exchange, AsyncCallback callback, Runnable step) {
        if (future.isDone()) {
            run(step, exchange);
            callback.done(true);
            return true;
        }
        future.whenComplete((value, error) -> {
            ChannelHandlerContext ctx = GatewayExchange.client(exchange);
            Runnable finish = () -> {
                run(step, exchange);
                callback.done(false);
            };
            if (ctx == null || ctx.executor().inEventLoop()) {
                finish.run();
            } else {
                ctx.executor().execute(finish);
            }
        });
        return false;
    }

    private static void run(Runnable step, Exchange exchange) {
        try {
            step.run();
        } catch (RuntimeException e) {
            exchange.setException(e);
        }
    }
}
