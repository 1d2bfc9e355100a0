package io.inferencegateway.camel;

import io.inferencegateway.domain.GatewayError;
import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.openai.InferenceRequestParser;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufInputStream;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * Reads the OpenAI request body once, without consuming it: the same bytes go upstream. Sets the
 * {@code gatewayRequest} property; a non-JSON content type is a 415, a bad body a 400.
 */
public class ParseInferenceRequest implements Processor {

    @Override
    public void process(Exchange exchange) {
        String contentType = exchange.getMessage().getHeader(Exchange.CONTENT_TYPE, String.class);
        if (!isJson(contentType)) {
            throw GatewayError.unsupportedMediaType(contentType);
        }
        ByteBuf body = exchange.getMessage().getBody(ByteBuf.class);
        if (body == null || !body.isReadable()) {
            throw GatewayError.invalidRequest(null, "The request body is empty");
        }
        InferenceRequest request = InferenceRequestParser.parse(new ByteBufInputStream(body.duplicate()));
        exchange.setProperty(GatewayExchange.REQUEST, request);
    }

    static boolean isJson(String contentType) {
        if (contentType == null) {
            return false;
        }
        int semi = contentType.indexOf(';');
        String mime = (semi < 0 ? contentType : contentType.substring(0, semi)).trim();
        return mime.equalsIgnoreCase("application/json");
    }
}
