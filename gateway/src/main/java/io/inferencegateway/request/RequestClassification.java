package io.inferencegateway.request;

import java.util.List;

import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.domain.InferenceRequestBuilder;

/**
 * Classifies a request at admission: the registered {@link RequestClassifier}s, in their order, each name one fact of
 * it on a builder started from its parsed body, and the {@link InferenceRequest} built then is the request's from
 * there on (flow control, the policy, the shadow copy and the record read that one). It runs once per request, in the
 * route step {@code classify-request}, after the steps that may refuse the request for who sent it (the tenant's
 * model access, its rate limits) and before flow control, so that a bad header is a 400 only for a request that would
 * otherwise have gone on.
 */
public final class RequestClassification {

    /** The built-in classifiers, in the order they run: a request's first bad header is the one its 400 names. */
    public static final List<RequestClassifier> BUILT_IN = List.of(
            new ServedModelClassifier(),
            new PriorityClassifier(),
            new LatencyTargetsClassifier(),
            new FairnessKeyClassifier(),
            new SessionKeyClassifier(),
            new ResidencyClassifier());

    private static final RequestClassification BUILT_IN_CLASSIFICATION = new RequestClassification(BUILT_IN);

    private final RequestClassifier[] classifiers;

    /** A classification by {@code classifiers}, run in their order. */
    public RequestClassification(List<RequestClassifier> classifiers) {
        this.classifiers = classifiers.toArray(RequestClassifier[]::new);
    }

    /** The classification by the {@link #BUILT_IN} classifiers. */
    public static RequestClassification builtIn() {
        return BUILT_IN_CLASSIFICATION;
    }

    /**
     * Classifies {@code request} (served by its pool) and gives it the {@link InferenceRequest} built, which it also
     * returns.
     *
     * @throws io.inferencegateway.domain.GatewayError a 400 when a header it carries cannot be taken
     */
    public InferenceRequest classify(GatewayRequest request) {
        InferenceRequestBuilder into = InferenceRequest.builder(request.parsedBody());
        for (RequestClassifier c : classifiers) {
            c.classify(request, into);
        }
        InferenceRequest built = into.build();
        request.classified(built);
        return built;
    }
}
