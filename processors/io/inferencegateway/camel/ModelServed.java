package io.inferencegateway.camel;

import org.apache.camel.Exchange;
import org.apache.camel.Predicate;

/** Whether a pool serves the request's model: the condition of routes/inference.camel.yaml's content-based router. */
public final class ModelServed implements Predicate {

    @Override
    public boolean matches(Exchange exchange) {
        return GatewayExchange.request(exchange).pool() != null;
    }
}
