package io.inferencegateway.camel;

import io.inferencegateway.runtime.Gateway;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/** {@code GET /ready}: 200 when every pool has an endpoint to send to, else 503. */
public class Readiness implements Processor {

    private final Gateway gateway;

    public Readiness(Gateway gateway) {
        this.gateway = gateway;
    }

    @Override
    public void process(Exchange exchange) {
        boolean ready = gateway.pools().allHaveEndpoints();
        exchange.getMessage().setHeader(Exchange.HTTP_RESPONSE_CODE, ready ? 200 : 503);
        exchange.getMessage().setHeader(Exchange.CONTENT_TYPE, "application/json");
        exchange.getMessage().setBody(ready ? "{\"status\":\"ready\"}" : "{\"status\":\"not ready\"}");
    }
}
