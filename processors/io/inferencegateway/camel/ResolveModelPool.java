package io.inferencegateway.camel;

import java.util.function.Supplier;

import io.inferencegateway.pool.ModelPools;
import io.inferencegateway.request.GatewayRequest;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * Body-based routing: the request's {@code model} (a base model or a LoRA adapter) names its pool, which the step
 * gives the request; an unknown model leaves it without one (the route's {@link ModelServed} choice answers 404).
 */
public class ResolveModelPool implements Processor {

    private final Supplier<ModelPools> pools;

    /** @param pools the gateway's pools as they are now (a reload replaces them) */
    public ResolveModelPool(Supplier<ModelPools> pools) {
        this.pools = pools;
    }

    @Override
    public void process(Exchange exchange) {
        GatewayRequest request = GatewayExchange.request(exchange);
        ModelPools.Resolution target = pools.get().resolve(request.model());
        if (target != null) {
            request.servedBy(target.pool(), target.adapter());
        }
    }
}
