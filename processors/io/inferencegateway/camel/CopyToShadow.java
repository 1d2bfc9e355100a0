package io.inferencegateway.camel;

import java.util.concurrent.RejectedExecutionException;

import io.inferencegateway.config.ShadowConfig;
import io.inferencegateway.pool.ModelPool;
import io.inferencegateway.request.GatewayRequest;
import io.inferencegateway.shadow.ShadowCopy;
import io.inferencegateway.shadow.ShadowTraffic;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.EventLoop;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * Shadow traffic (docs/shadow.md): when the request's pool has a {@code shadow} and the request is sampled, takes a
 * copy (a retained view of the body, no bytes copied) and hands it to the client connection's event loop as a task of
 * its own. That task runs after the one now running has sent the client's request to its pod (the route's next step),
 * so the copy delays neither the pick nor the first byte; it is then sent or dropped ({@link ShadowTraffic#send}) and
 * its answer discarded, on nothing of the client's. A pool without a shadow costs one field read here.
 */
public class CopyToShadow implements Processor {

    private static final String REQUEST_ID = "x-request-id";

    private final ShadowTraffic shadow;
    private volatile UpstreamComponent upstream;

    public CopyToShadow(ShadowTraffic shadow) {
        this.shadow = shadow;
    }

    @Override
    public void process(Exchange exchange) {
        GatewayRequest request = GatewayExchange.request(exchange);
        ModelPool pool = request.pool();
        ShadowConfig s = pool.config().shadow();
        if (!s.enabled()) {
            return;
        }
        String requestId = request.headers().get(REQUEST_ID);
        if (!ShadowTraffic.sampled(s, requestId)) {
            return;
        }
        ShadowCopy copy = new ShadowCopy(pool, request.inference(), request.method(), request.uri(), request.headers(),
                request.body().retainedDuplicate(), requestId, request.route() != null && request.route().streamUsage());
        UpstreamComponent component = upstream(exchange);
        ChannelHandlerContext client = GatewayExchange.client(exchange);
        if (client == null) { // not from the ingress (a test's exchange): nothing to wait for
            shadow.send(copy, component.client(), component.tlsFor(null, null), null);
            return;
        }
        EventLoop loop = client.channel().eventLoop();
        try {
            loop.execute(() -> shadow.send(copy, component.client(), component.tlsFor(null, null), loop));
        } catch (RejectedExecutionException e) { // the loop is shutting down: no copy
            copy.body().release();
        }
    }

    private UpstreamComponent upstream(Exchange exchange) {
        UpstreamComponent c = upstream;
        if (c == null) {
            c = upstream = exchange.getContext().getComponent("upstream", UpstreamComponent.class);
        }
        return c;
    }
}
