package io.inferencegateway.request;

import io.inferencegateway.domain.InferenceRequestBuilder;

/**
 * One thing the gateway decides about a request when it classifies it at admission, from what the request carries
 * (its headers, its parsed body, its tenant) and its pool's config: the model it is served as, its priority, its
 * latency targets, its fairness key, its session, its residency. Each classifier names its one fact on the
 * {@link io.inferencegateway.domain.InferenceRequest} being built; {@link RequestClassification} runs the registered
 * ones in their order, once per request. A new fact is one more classifier and one line in
 * {@link RequestClassification#BUILT_IN}.
 *
 * <p>Free of Camel, and of state: one instance serves every request, on every event loop.
 */
@FunctionalInterface
public interface RequestClassifier {

    /**
     * Names this classifier's fact of {@code request} on {@code into}. The request has been served by its pool
     * ({@link GatewayRequest#pool()} is set).
     *
     * @throws io.inferencegateway.domain.GatewayError a 400 when the request carries a value it cannot take
     */
    void classify(GatewayRequest request, InferenceRequestBuilder into);
}
