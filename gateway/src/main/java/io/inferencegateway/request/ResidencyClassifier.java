package io.inferencegateway.request;

import io.inferencegateway.config.TenantConfig;
import io.inferencegateway.domain.InferenceRequestBuilder;
import io.inferencegateway.domain.Residency;

/**
 * Where a request may be served at the global tier (docs/global.md): its authenticated tenant's residency pin, or
 * anywhere ({@link Residency#ANY}) without a tenant.
 */
public final class ResidencyClassifier implements RequestClassifier {

    @Override
    public void classify(GatewayRequest request, InferenceRequestBuilder into) {
        TenantConfig tenant = request.tenant();
        into.residency(tenant == null ? Residency.ANY : tenant.residency());
    }
}
