package io.inferencegateway.camel;

import java.util.Map;
import java.util.Set;

import io.inferencegateway.domain.GatewayError;
import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.domain.RequestRecord;
import io.inferencegateway.openai.InferenceRequestParser;
import io.inferencegateway.openai.MultipartFields;
import io.inferencegateway.proxy.UpstreamRequests;
import io.inferencegateway.runtime.Gateway;
import io.inferencegateway.runtime.RequestListeners;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.buffer.ByteBuf;
import io.netty.util.AsciiString;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * Reads the OpenAI request body once, without consuming it: the same bytes go upstream. Sets the
 * {@code gatewayRequest} property. A JSON body gives model, stream and prompt; a {@code multipart/form-data} one (the
 * audio uploads) its {@code model} and {@code stream} fields. Another content type is a 415, a bad body a 400.
 *
 * <p>While anyone listens to the gateway's requests (meters, access log, tracer, fleet page), it also starts the
 * request's {@link RequestRecord} here, so that refused requests are recorded too, and ends it when the exchange
 * ends without a relayed response (a relayed response ends it when its body does).
 */
public class ParseInferenceRequest implements Processor {

    private static final Set<String> FORM_FIELDS = Set.of("model", "stream");
    // as Netty looks them up: an AsciiString keeps its hash, a String's is computed again on every lookup
    private static final AsciiString REQUEST_ID = AsciiString.cached("x-request-id");
    private static final AsciiString TRACEPARENT = AsciiString.cached(UpstreamRequests.TRACEPARENT);

    private final Gateway gateway;

    public ParseInferenceRequest(Gateway gateway) {
        this.gateway = gateway;
    }

    @Override
    public void process(Exchange exchange) {
        RequestRecord record = gateway.requestListeners().active() ? startRecord(exchange) : null;
        String contentType = exchange.getMessage().getHeader(Exchange.CONTENT_TYPE, String.class);
        boolean json = isMime(contentType, "application/json");
        if (!json && !isMime(contentType, "multipart/form-data")) {
            throw GatewayError.unsupportedMediaType(contentType);
        }
        ByteBuf body = exchange.getMessage().getBody(ByteBuf.class);
        if (body == null || !body.isReadable()) {
            throw GatewayError.invalidRequest(null, "The request body is empty");
        }
        InferenceRequest request = json ? InferenceRequestParser.parse(body, gateway.pools().promptChars())
                : form(body, contentType);
        exchange.setProperty(GatewayExchange.REQUEST, request);
        if (record != null) {
            record.parsed(request, gateway.requestListeners().now());
        }
    }

    private RequestRecord startRecord(Exchange exchange) {
        HttpHeaders headers = exchange.getProperty(GatewayExchange.REQUEST_HEADERS, HttpHeaders.class);
        RequestListeners listeners = gateway.requestListeners();
        RequestRecord record = new RequestRecord(listeners.now(), System.currentTimeMillis(),
                exchange.getMessage().getHeader(Exchange.HTTP_PATH, String.class),
                headers == null ? null : headers.get(REQUEST_ID),
                headers == null ? null : headers.get(TRACEPARENT));
        exchange.setProperty(GatewayExchange.RECORD, record);
        exchange.setProperty(GatewayExchange.LISTENERS, listeners);
        RequestEnding.of(exchange).record(record, listeners);
        listeners.started(record);
        return record;
    }

    private static InferenceRequest form(ByteBuf body, String contentType) {
        String boundary = MultipartFields.boundary(contentType);
        if (boundary == null) {
            throw GatewayError.invalidRequest(null, "A multipart/form-data body needs a boundary");
        }
        Map<String, String> fields = MultipartFields.read(body, boundary, FORM_FIELDS);
        String model = fields.get("model");
        if (model == null || model.isBlank()) {
            throw GatewayError.invalidRequest("model", "You must provide a model parameter");
        }
        return new InferenceRequest(model.strip(), null, "", 0, "true".equalsIgnoreCase(fields.get("stream")));
    }

    static boolean isMime(String contentType, String mime) {
        if (contentType == null) {
            return false;
        }
        // the media type before any parameters, trimmed as String.trim does, compared in place
        int end = contentType.indexOf(';');
        end = end < 0 ? contentType.length() : end;
        int start = 0;
        while (start < end && contentType.charAt(start) <= ' ') {
            start++;
        }
        while (end > start && contentType.charAt(end - 1) <= ' ') {
            end--;
        }
        return end - start == mime.length() && contentType.regionMatches(true, start, mime, 0, mime.length());
    }
}
