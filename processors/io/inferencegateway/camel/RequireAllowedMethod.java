package io.inferencegateway.camel;

import io.inferencegateway.core.GatewayException;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/** 405 unless the request's method is the one the {@code Allow} header (set by the ingress route) names. */
public class RequireAllowedMethod implements Processor {

    @Override
    public void process(Exchange exchange) {
        String method = exchange.getMessage().getHeader(Exchange.HTTP_METHOD, String.class);
        String allow = exchange.getMessage().getHeader("Allow", String.class);
        if (allow != null && !allow.equals(method)) {
            throw GatewayException.methodNotAllowed(method, exchange.getMessage().getHeader(Exchange.HTTP_PATH, String.class));
        }
    }
}
