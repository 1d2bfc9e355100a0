package io.inferencegateway.camel;

import java.util.function.Supplier;

import io.inferencegateway.pool.ModelPools;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * {@code GET /ready}: 200 when every pool has an endpoint to send to, else 503; 503 {@code draining} from the moment the
 * gateway begins to stop (GracefulDrain), so that load balancers send it nothing new.
 */
public class Readiness implements Processor {

    private final Supplier<ModelPools> pools;
    private final GracefulDrain drain;

    /** @param pools the gateway's pools as they are now (a reload replaces them) */
    public Readiness(Supplier<ModelPools> pools, GracefulDrain drain) {
        this.pools = pools;
        this.drain = drain;
    }

    @Override
    public void process(Exchange exchange) {
        String status = drain.draining() ? "draining" : pools.get().allHaveEndpoints() ? "ready" : "not ready";
        exchange.getMessage().setHeader(Exchange.HTTP_RESPONSE_CODE, status.equals("ready") ? 200 : 503);
        exchange.getMessage().setHeader(Exchange.CONTENT_TYPE, "application/json");
        exchange.getMessage().setBody("{\"status\":\"" + status + "\"}");
    }
}
