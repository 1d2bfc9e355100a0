package io.inferencegateway.openai;

import java.nio.charset.StandardCharsets;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.inferencegateway.domain.GatewayError;

/**
 * The edge's view of a {@link GatewayError}: the HTTP status and the OpenAI error body,
 * {@code {"error":{"message","type","param","code"}}}, that a client sees for it.
 */
public final class OpenAiErrors {

    /** The HTTP status, the OpenAI error {@code type} and its {@code code} (null where OpenAI sends none). */
    public record Shape(int status, String type, String code) {
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String INVALID = "invalid_request_error";
    private static final String SERVER = "server_error";

    private OpenAiErrors() {
    }

    public static Shape shape(GatewayError.Reason reason) {
        return switch (reason) {
            case INVALID_REQUEST -> new Shape(400, INVALID, null);
            case UNSUPPORTED_MEDIA_TYPE -> new Shape(415, INVALID, "unsupported_media_type");
            case REQUEST_TOO_LARGE -> new Shape(413, INVALID, "request_too_large");
            case UNKNOWN_URL -> new Shape(404, INVALID, "unknown_url");
            case METHOD_NOT_ALLOWED -> new Shape(405, INVALID, "method_not_allowed");
            case MODEL_NOT_FOUND -> new Shape(404, INVALID, "model_not_found");
            case CLIENT_CLOSED -> new Shape(499, INVALID, "client_closed");
            case NO_ENDPOINT -> new Shape(503, SERVER, "no_endpoint");
            case SHUTTING_DOWN -> new Shape(503, SERVER, "shutting_down");
            case OVERLOADED -> new Shape(429, SERVER, "overloaded");
            case UPSTREAM_UNAVAILABLE -> new Shape(502, SERVER, "upstream_unavailable");
            case UPSTREAM_REFUSED -> new Shape(503, SERVER, "upstream_refused");
            case UPSTREAM_BROKEN -> new Shape(502, SERVER, "upstream_broken");
            case UPSTREAM_TIMEOUT -> new Shape(504, SERVER, "upstream_timeout");
            case UNAUTHENTICATED -> new Shape(401, INVALID, "invalid_api_key");
            case MODEL_NOT_ALLOWED -> new Shape(403, INVALID, "model_not_allowed");
            case TENANT_NOT_ALLOWED -> new Shape(403, INVALID, "tenant_not_allowed");
            // OpenAI's 429 names the limit that was hit as its type
            case REQUESTS_RATE_LIMITED -> new Shape(429, "requests", "rate_limit_exceeded");
            case TOKENS_RATE_LIMITED -> new Shape(429, "tokens", "rate_limit_exceeded");
            case RATE_LIMITER_UNAVAILABLE -> new Shape(503, SERVER, "rate_limiter_unavailable");
            case INTERNAL -> new Shape(500, SERVER, "internal_error");
        };
    }

    public static int status(GatewayError e) {
        return shape(e.reason()).status();
    }

    public static byte[] body(GatewayError e) {
        Shape shape = shape(e.reason());
        return body(e.getMessage(), shape.type(), e.param(), shape.code());
    }

    public static byte[] body(String message, String type, String param, String code) {
        ObjectNode root = JSON.createObjectNode();
        ObjectNode error = root.putObject("error");
        error.put("message", message);
        error.put("type", type);
        error.put("param", param);
        error.put("code", code);
        try {
            return JSON.writeValueAsBytes(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The same error as one SSE event, for a stream that breaks after it started. */
    public static byte[] sseEvent(GatewayError e) {
        byte[] json = body(e);
        byte[] out = new byte[json.length + 8];
        System.arraycopy("data: ".getBytes(StandardCharsets.US_ASCII), 0, out, 0, 6);
        System.arraycopy(json, 0, out, 6, json.length);
        out[out.length - 2] = '\n';
        out[out.length - 1] = '\n';
        return out;
    }
}
