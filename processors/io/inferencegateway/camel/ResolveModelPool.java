package io.inferencegateway.camel;

import io.inferencegateway.runtime.Gateway;
import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.domain.RequestRecord;
import io.inferencegateway.pool.ModelPools;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * Body-based routing: the request's {@code model} (a base model or a LoRA adapter) names its pool.
 * Sets {@code gatewayModelPool}, or leaves it unset for an unknown model (the route answers 404).
 */
public class ResolveModelPool implements Processor {

    private final Gateway gateway;

    public ResolveModelPool(Gateway gateway) {
        this.gateway = gateway;
    }

    @Override
    public void process(Exchange exchange) {
        InferenceRequest request = exchange.getProperty(GatewayExchange.REQUEST, InferenceRequest.class);
        ModelPools.Target target = gateway.pools().resolve(request.model());
        if (target == null) {
            return;
        }
        exchange.setProperty(GatewayExchange.MODEL_POOL, target.pool());
        RequestRecord record = exchange.getProperty(GatewayExchange.RECORD, RequestRecord.class);
        if (record != null) {
            record.routedTo(target.pool().name(), target.pool().config().modelName());
        }
        if (target.adapter() != null) {
            exchange.setProperty(GatewayExchange.REQUEST, request.withAdapter(target.adapter()));
        }
    }
}
