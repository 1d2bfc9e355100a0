package io.inferencegateway.camel;

import java.util.HashMap;
import java.util.Map;

import io.netty.channel.ChannelHandlerContext;
import org.apache.camel.AsyncCallback;
import org.apache.camel.Exchange;
import org.apache.camel.component.netty.NettyConstants;

/**
 * Continues an exchange whose step finished on another thread (Lettuce's, the JDK HTTP client's) on the event loop
 * of the client's connection, where the rest of the request path runs (see domain/RequestRecord: one thread per
 * request, no locks).
 */
final class EventLoopResume {

    private EventLoopResume() {
    }

    static void resume(Exchange exchange, AsyncCallback callback, Runnable step) {
        ChannelHandlerContext ctx = exchange.getMessage().getHeader(NettyConstants.NETTY_CHANNEL_HANDLER_CONTEXT,
                ChannelHandlerContext.class);
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

    /** Adds {@code name: value} to the headers every response to the exchange carries. */
    @SuppressWarnings("unchecked")
    static void responseHeader(Exchange exchange, String name, String value) {
        Map<String, String> headers = exchange.getProperty(GatewayExchange.RESPONSE_HEADERS, Map.class);
        if (headers == null) {
            headers = new HashMap<>();
            exchange.setProperty(GatewayExchange.RESPONSE_HEADERS, headers);
        }
        headers.put(name, value);
    }
}
