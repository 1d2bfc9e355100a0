package io.inferencegateway.camel;

import io.inferencegateway.domain.GatewayError;
import io.inferencegateway.openai.OpenAiErrors;
import io.inferencegateway.proxy.UpstreamResponse;
import io.inferencegateway.request.GatewayRequest;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns the exception a route caught into the OpenAI error body and status, with the error's own headers (Allow,
 * Retry-After, WWW-Authenticate) beside those earlier steps added. Unexpected exceptions are logged here with their
 * stack trace and reach the client as a plain 500.
 */
public class OpenAiErrorResponse implements Processor {

    private static final Logger LOG = LoggerFactory.getLogger(OpenAiErrorResponse.class);

    @Override
    public void process(Exchange exchange) {
        Throwable caught = exchange.getProperty(Exchange.EXCEPTION_CAUGHT, Throwable.class);
        GatewayError error;
        if (caught instanceof GatewayError g) {
            error = g;
        } else {
            LOG.error("Unexpected failure on {} {}", exchange.getMessage().getHeader(Exchange.HTTP_METHOD),
                    exchange.getMessage().getHeader(Exchange.HTTP_PATH), caught);
            error = GatewayError.internal();
        }
        int status = OpenAiErrors.status(error);
        GatewayRequest request = GatewayExchange.request(exchange);
        if (request != null) {
            request.failed(error, status);
        }
        if (exchange.getMessage().getBody() instanceof UpstreamResponse relayed) {
            relayed.body().abandon(); // the error replaces a response that will now never be relayed
        }
        exchange.getMessage().setBody(OpenAiErrors.body(error));
        exchange.getMessage().setHeader(Exchange.HTTP_RESPONSE_CODE, status);
        exchange.getMessage().setHeader(Exchange.CONTENT_TYPE, "application/json");
    }
}
