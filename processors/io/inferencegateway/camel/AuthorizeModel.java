package io.inferencegateway.camel;

import io.inferencegateway.config.TenantConfig;
import io.inferencegateway.domain.GatewayError;
import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.domain.RequestRecord;
import io.inferencegateway.pool.ModelPool;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * {@code 403 model_not_allowed} when the caller's tenant may not use the requested model or adapter
 * ({@code spec.tenants[].models}, {@code .adapters}); names the tenant on the request's record for the access log.
 */
public class AuthorizeModel implements Processor {

    @Override
    public void process(Exchange exchange) {
        TenantConfig tenant = exchange.getProperty(GatewayExchange.TENANT, TenantConfig.class);
        if (tenant == null) {
            return;
        }
        RequestRecord record = exchange.getProperty(GatewayExchange.RECORD, RequestRecord.class);
        if (record != null) {
            record.tenant(tenant.name());
        }
        ModelPool pool = exchange.getProperty(GatewayExchange.MODEL_POOL, ModelPool.class);
        InferenceRequest request = exchange.getProperty(GatewayExchange.REQUEST, InferenceRequest.class);
        if (!tenant.allows(pool.config().modelName(), request.adapter())) {
            throw GatewayError.modelNotAllowed(request.model());
        }
    }
}
