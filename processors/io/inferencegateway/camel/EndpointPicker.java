package io.inferencegateway.camel;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.inferencegateway.runtime.Gateway;
import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.domain.RequestRecord;
import io.inferencegateway.pool.ModelPool;
import io.inferencegateway.pool.Placement;
import org.apache.camel.Exchange;
import org.apache.camel.Expression;
import org.apache.camel.support.service.ServiceHelper;

/**
 * The dynamic recipient: the {@code upstream:host:port} endpoint that should serve the request, for the route's
 * dynamic to ({@code toD}); flow control ({@link AdmitRequest}) has usually placed the request already, at the
 * moment a pod had room, otherwise this asks the pool's scheduling policy now.
 * The {@link Placement} it leaves on the exchange lets the upstream producer fail over and count the
 * request in flight until its response ends, or until the exchange ends without a relayed response.
 *
 * <p>It hands the dynamic to the Camel endpoint itself, so that Camel neither parses, normalizes nor looks up a URI per
 * request: resolved once per pod (again should Camel have stopped it), and kept for at most {@link #MAX_URIS} pods
 * (pods come and go).
 */
public class EndpointPicker implements Expression {

    static final int MAX_URIS = 4096;

    private final Gateway gateway;
    private final Map<Endpoint, org.apache.camel.Endpoint> upstreams = new ConcurrentHashMap<>();

    public EndpointPicker(Gateway gateway) {
        this.gateway = gateway;
    }

    @Override
    public <T> T evaluate(Exchange exchange, Class<T> type) {
        org.apache.camel.Endpoint upstream = pick(exchange);
        return type.isInstance(upstream) ? type.cast(upstream) : type.cast(upstream.getEndpointUri());
    }

    org.apache.camel.Endpoint pick(Exchange exchange) {
        Placement placement = exchange.getProperty(GatewayExchange.PLACEMENT, Placement.class);
        if (placement == null) { // no flow control step before this one in the route
            ModelPool pool = exchange.getProperty(GatewayExchange.MODEL_POOL, ModelPool.class);
            InferenceRequest request = exchange.getProperty(GatewayExchange.REQUEST, InferenceRequest.class);
            long start = gateway.clock().nanoTime();
            placement = Placement.choose(pool, request, gateway.inFlight());
            bind(exchange, placement, gateway, gateway.clock().nanoTime() - start);
        }
        return upstream(exchange, placement.endpoint());
    }

    private org.apache.camel.Endpoint upstream(Exchange exchange, Endpoint endpoint) {
        org.apache.camel.Endpoint upstream = upstreams.get(endpoint);
        if (upstream == null || ServiceHelper.isStopped(upstream)) {
            if (upstreams.size() >= MAX_URIS) {
                upstreams.clear();
            }
            upstream = exchange.getContext().getEndpoint("upstream:" + endpoint);
            upstreams.put(endpoint, upstream);
        }
        return upstream;
    }

    /**
     * Puts a placement chosen in {@code pickNanos} on the exchange, records the pick, and releases the placement when
     * the exchange ends without a relayed response (a relayed one releases it when its body ends).
     */
    static void bind(Exchange exchange, Placement placement, Gateway gateway, long pickNanos) {
        RequestRecord record = exchange.getProperty(GatewayExchange.RECORD, RequestRecord.class);
        if (record != null) {
            record.picked(placement.decision(), pickNanos);
            gateway.requestListeners().picked(record);
        }
        exchange.setProperty(GatewayExchange.PLACEMENT, placement);
        RequestEnding.of(exchange).placement(placement);
    }
}
