package io.inferencegateway.camel;

import java.util.Map;
import java.util.Set;
import java.util.function.IntSupplier;

import io.inferencegateway.domain.GatewayError;
import io.inferencegateway.domain.NanoClock;
import io.inferencegateway.domain.ParsedBody;
import io.inferencegateway.domain.RequestListener;
import io.inferencegateway.openai.InferenceRequestParser;
import io.inferencegateway.openai.MultipartFields;
import io.inferencegateway.request.GatewayRequest;
import io.netty.buffer.ByteBuf;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * Reads the OpenAI request body once, without consuming it: the same bytes go upstream. A JSON body gives model,
 * stream and prompt; a {@code multipart/form-data} one (the audio uploads) its {@code model} and {@code stream} fields.
 * Another content type is a 415, a bad body a 400.
 *
 * <p>It first starts the request's record, so that refused requests are recorded too; the request's listeners
 * (meters, access log, tracer, fleet page, rate limiter) hear of it when it ends.
 */
public class ParseInferenceRequest implements Processor {

    private static final Set<String> FORM_FIELDS = Set.of("model", "stream");

    private final RequestListener listeners;
    private final NanoClock clock;
    private final IntSupplier promptChars;

    /**
     * @param listeners   who learns of every inference request
     * @param clock       the clock of the requests' records
     * @param promptChars how many of a prompt's first characters the pools' policies read (a reload may change it)
     */
    public ParseInferenceRequest(RequestListener listeners, NanoClock clock, IntSupplier promptChars) {
        this.listeners = listeners;
        this.clock = clock;
        this.promptChars = promptChars;
    }

    @Override
    public void process(Exchange exchange) {
        GatewayRequest request = GatewayExchange.request(exchange);
        request.startRecord(listeners, clock);
        String contentType = exchange.getMessage().getHeader(Exchange.CONTENT_TYPE, String.class);
        boolean json = isMime(contentType, "application/json");
        if (!json && !isMime(contentType, "multipart/form-data")) {
            throw GatewayError.unsupportedMediaType(contentType);
        }
        ByteBuf body = request.body();
        if (body == null || !body.isReadable()) {
            throw GatewayError.invalidRequest(null, "The request body is empty");
        }
        request.parsed(json ? InferenceRequestParser.parse(body, promptChars.getAsInt()) : form(body, contentType));
    }

    private static ParsedBody form(ByteBuf body, String contentType) {
        String boundary = MultipartFields.boundary(contentType);
        if (boundary == null) {
            throw GatewayError.invalidRequest(null, "A multipart/form-data body needs a boundary");
        }
        Map<String, String> fields = MultipartFields.read(body, boundary, FORM_FIELDS);
        String model = fields.get("model");
        if (model == null || model.isBlank()) {
            throw GatewayError.invalidRequest("model", "You must provide a model parameter");
        }
        return ParsedBody.builder(model.strip()).stream("true".equalsIgnoreCase(fields.get("stream"))).build();
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
