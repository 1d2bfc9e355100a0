package io.inferencegateway.camel;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.Scheduling;
import io.inferencegateway.pool.ModelPool;
import io.inferencegateway.pool.Placement;
import io.inferencegateway.request.GatewayRequest;
import org.apache.camel.Exchange;
import org.apache.camel.Expression;
import org.apache.camel.support.service.ServiceHelper;

/**
 * The dynamic recipient: picks the pod that serves the request and answers its {@code upstream:host:port} endpoint,
 * which the route's dynamic to ({@code toD}) sends the request to. The pick is the request's {@link Placement}: its
 * pool's policy chooses now, among the pods it admits, and the request counts in flight there until it ends; a
 * request that waited in the pool's queue was placed when it left the queue (late binding, see AdmitRequest), and
 * this answers that pod. The upstream producer sends to the endpoint answered here, and fails over from it.
 *
 * <p>It hands the dynamic to the Camel endpoint itself, so that Camel neither parses, normalizes nor looks up a URI per
 * request: resolved once per pod (again should Camel have stopped it), and kept for at most {@link #MAX_URIS} pods
 * (pods come and go).
 */
public class EndpointPicker implements Expression {

    static final int MAX_URIS = 4096;

    private final Map<Endpoint, org.apache.camel.Endpoint> upstreams = new ConcurrentHashMap<>();

    @Override
    public <T> T evaluate(Exchange exchange, Class<T> type) {
        org.apache.camel.Endpoint upstream = upstream(exchange, pick(GatewayExchange.request(exchange)).endpoint());
        return type.isInstance(upstream) ? type.cast(upstream) : type.cast(upstream.getEndpointUri());
    }

    /**
     * The request's placement: made now, on the snapshot its admission took, unless the pool's queue made it when it
     * let the request go.
     */
    static Placement pick(GatewayRequest request) {
        Placement placement = request.placement();
        if (placement == null) {
            ModelPool pool = request.pool();
            long start = pool.clock().nanoTime();
            Scheduling admitted = request.takeScheduling();
            placement = admitted == null ? Placement.choose(pool, request.inference())
                    : Placement.place(pool, request.inference(), admitted);
            request.placed(placement, pool.clock().nanoTime() - start);
        }
        return placement;
    }

    private org.apache.camel.Endpoint upstream(Exchange exchange, Endpoint endpoint) {
        org.apache.camel.Endpoint upstream = upstreams.get(endpoint);
        if (upstream == null || ServiceHelper.isStopped(upstream)) {
            if (upstreams.size() >= MAX_URIS) {
                upstreams.clear();
            }
            upstream = exchange.getContext().getEndpoint("upstream:" + endpoint.address());
            upstreams.put(endpoint, upstream);
        }
        return upstream;
    }
}
