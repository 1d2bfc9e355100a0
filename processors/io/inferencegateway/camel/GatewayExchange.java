package io.inferencegateway.camel;

import io.inferencegateway.request.GatewayRequest;
import io.netty.channel.ChannelHandlerContext;
import org.apache.camel.Exchange;
import org.apache.camel.component.netty.NettyConstants;
import org.apache.camel.support.SynchronizationAdapter;

/**
 * Where the gateway's routes keep a request: one exchange property, its {@link GatewayRequest}, made by the ingress's
 * binding and ended (if nothing relayed ends it later) by one on-completion when the exchange ends.
 */
public final class GatewayExchange {

    /** The exchange property that holds the {@link GatewayRequest}. */
    public static final String REQUEST = "gatewayRequest";

    private GatewayExchange() {
    }

    /** The exchange's request, or null for an exchange that did not come through the ingress (a timer's). */
    public static GatewayRequest request(Exchange exchange) {
        return (GatewayRequest) exchange.getProperty(REQUEST);
    }

    /** Puts {@code request} on {@code exchange}, to be told when the exchange ends. */
    public static GatewayRequest begin(Exchange exchange, GatewayRequest request) {
        exchange.setProperty(REQUEST, request);
        exchange.getExchangeExtension().addOnCompletion(new ExchangeEnding(request));
        return request;
    }

    /** The client connection's handler context, which netty-http puts on the message; null off the ingress. */
    static ChannelHandlerContext client(Exchange exchange) {
        return exchange.getMessage().getHeader(NettyConstants.NETTY_CHANNEL_HANDLER_CONTEXT,
                ChannelHandlerContext.class);
    }

    /**
     * Tells the request its exchange ended, however it ended: rendered failures are handled, so an on-failure hook
     * alone would miss them.
     */
    private static final class ExchangeEnding extends SynchronizationAdapter {
        private final GatewayRequest request;

        ExchangeEnding(GatewayRequest request) {
            this.request = request;
        }

        @Override
        public void onDone(Exchange exchange) {
            request.exchangeEnded();
        }
    }
}
