package io.inferencegateway.request;

import io.inferencegateway.domain.InferenceRequestBuilder;

/**
 * The model the request is served as and its adapter, as the steps before admission found them: the body's model or
 * the target its model rewrite chose (docs/rollouts.md), and the LoRA adapter that name resolved to in its pool.
 */
public final class ServedModelClassifier implements RequestClassifier {

    @Override
    public void classify(GatewayRequest request, InferenceRequestBuilder into) {
        into.model(request.model()).adapter(request.adapter());
    }
}
