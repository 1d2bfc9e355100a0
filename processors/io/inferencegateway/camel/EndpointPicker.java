package io.inferencegateway.camel;

import io.inferencegateway.runtime.Gateway;
import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.domain.RequestRecord;
import io.inferencegateway.pool.ModelPool;
import io.inferencegateway.pool.Placement;
import io.inferencegateway.proxy.UpstreamResponse;
import org.apache.camel.Exchange;
import org.apache.camel.Expression;
import org.apache.camel.support.SynchronizationAdapter;

/**
 * The dynamic recipient: asks the pool's scheduling policy for the endpoint that should serve the
 * request and returns it as an {@code upstream:host:port} URI for the route's {@code recipientList}.
 * The {@link Placement} it leaves on the exchange lets the upstream producer fail over and count the
 * request in flight until its response ends, or until the exchange ends without a relayed response.
 */
public class EndpointPicker implements Expression {

    private final Gateway gateway;

    public EndpointPicker(Gateway gateway) {
        this.gateway = gateway;
    }

    @Override
    public <T> T evaluate(Exchange exchange, Class<T> type) {
        return type.cast(pick(exchange));
    }

    String pick(Exchange exchange) {
        ModelPool pool = exchange.getProperty(GatewayExchange.MODEL_POOL, ModelPool.class);
        InferenceRequest request = exchange.getProperty(GatewayExchange.REQUEST, InferenceRequest.class);
        RequestRecord record = exchange.getProperty(GatewayExchange.RECORD, RequestRecord.class);
        long start = record == null ? 0 : gateway.requestListeners().now();
        Placement placement = Placement.choose(pool, request, gateway.inFlight());
        if (record != null) {
            record.picked(placement.decision(), gateway.requestListeners().now() - start);
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
        return "upstream:" + placement.endpoint();
    }
}
