package io.inferencegateway.camel;

import io.inferencegateway.config.TenantConfig;
import io.inferencegateway.domain.GatewayError;
import io.inferencegateway.request.GatewayRequest;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * {@code 403 model_not_allowed} when the caller's tenant may not use the requested model or adapter
 * ({@code spec.tenants[].models}, {@code .adapters}).
 */
public class AuthorizeModel implements Processor {

    @Override
    public void process(Exchange exchange) {
        GatewayRequest request = GatewayExchange.request(exchange);
        TenantConfig tenant = request.tenant();
        if (tenant != null && !tenant.allows(request.pool().config().modelName(), request.adapter())) {
            throw GatewayError.modelNotAllowed(request.model());
        }
    }
}
