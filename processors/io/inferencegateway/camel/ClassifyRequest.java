package io.inferencegateway.camel;

import io.inferencegateway.request.RequestClassification;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * The route step {@code classify-request}: classifies the request once, with the registered classifiers
 * ({@link RequestClassification}): the model it is served as, its priority, latency targets, fairness key, session
 * and residency. A bad priority, target or fairness header is a 400 here.
 */
public class ClassifyRequest implements Processor {

    private final RequestClassification classification;

    /** The step with the built-in classifiers. */
    public ClassifyRequest() {
        this(RequestClassification.builtIn());
    }

    public ClassifyRequest(RequestClassification classification) {
        this.classification = classification;
    }

    @Override
    public void process(Exchange exchange) {
        classification.classify(GatewayExchange.request(exchange));
    }
}
