package io.inferencegateway.camel;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.inferencegateway.runtime.Gateway;
import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.domain.RequestRecord;
import io.inferencegateway.pool.ModelPool;
import io.inferencegateway.pool.Placement;
import io.inferencegateway.proxy.UpstreamResponse;
import org.apache.camel.Exchange;
import org.apache.camel.Expression;
import org.apache.camel.spi.NormalizedEndpointUri;
import org.apache.camel.support.SynchronizationAdapter;

/**
 * The dynamic recipient: the endpoint that should serve the request as an {@code upstream:host:port} URI for the
 * route's dynamic to ({@code toD}); flow control ({@link AdmitRequest}) has usually placed the request already, at the
 * moment a pod had room, otherwise this asks the pool's scheduling policy now.
 * The {@link Placement} it leaves on the exchange lets the upstream producer fail over and count the
 * request in flight until its response ends, or until the exchange ends without a relayed response.
 *
 * <p>The URI is handed over already normalized, so that the dynamic to neither parses nor normalizes it per request;
 * normalized once per endpoint, and kept for at most {@link #MAX_URIS} endpoints (pods come and go).
 */
public class EndpointPicker implements Expression {

    static final int MAX_URIS = 4096;

    private final Gateway gateway;
    private final Map<Endpoint, NormalizedEndpointUri> uris = new ConcurrentHashMap<>();

    public EndpointPicker(Gateway gateway) {
        this.gateway = gateway;
    }

    @Override
    public <T> T evaluate(Exchange exchange, Class<T> type) {
        NormalizedEndpointUri uri = pick(exchange);
        return type.isInstance(uri) ? type.cast(uri) : type.cast(uri.getUri());
    }

    NormalizedEndpointUri pick(Exchange exchange) {
        Placement placement = exchange.getProperty(GatewayExchange.PLACEMENT, Placement.class);
        if (placement == null) { // no flow control step before this one in the route
            ModelPool pool = exchange.getProperty(GatewayExchange.MODEL_POOL, ModelPool.class);
            InferenceRequest request = exchange.getProperty(GatewayExchange.REQUEST, InferenceRequest.class);
            long start = gateway.clock().nanoTime();
            placement = Placement.choose(pool, request, gateway.inFlight());
            bind(exchange, placement, gateway, gateway.clock().nanoTime() - start);
        }
        return uri(exchange, placement.endpoint());
    }

    private NormalizedEndpointUri uri(Exchange exchange, Endpoint endpoint) {
        NormalizedEndpointUri uri = uris.get(endpoint);
        if (uri == null) {
            if (uris.size() >= MAX_URIS) {
                uris.clear();
            }
            uri = exchange.getContext().getCamelContextExtension().normalizeUri("upstream:" + endpoint);
            uris.put(endpoint, uri);
        }
        return uri;
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
        exchange.getExchangeExtension().addOnCompletion(new SynchronizationAdapter() {
            @Override
            public void onDone(Exchange done) {
                // A relayed response releases the placement when its body ends. Any other ending (a failure before
                // or during the upstream call, even one the error handler turned into an error response) ends the
                // request here: the error handler marks failures handled, so onFailure alone would miss them.
                if (!(done.getMessage().getBody() instanceof UpstreamResponse)) {
                    placement.finish();
                }
            }
        });
    }
}
