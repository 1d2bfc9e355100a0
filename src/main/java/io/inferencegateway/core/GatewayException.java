package io.inferencegateway.core;

/**
 * A request the gateway refuses or cannot serve, with what the client should see: the HTTP status and
 * the OpenAI error fields. The message is for the client, so it never holds internals.
 */
public class GatewayException extends RuntimeException {

    private final int status;
    private final String type;
    private final String code;
    private final String param;

    public GatewayException(int status, String type, String code, String param, String message) {
        super(message, null, false, false);
        this.status = status;
        this.type = type;
        this.code = code;
        this.param = param;
    }

    public int status() {
        return status;
    }

    public String type() {
        return type;
    }

    public String code() {
        return code;
    }

    public String param() {
        return param;
    }

    public static GatewayException badRequest(String param, String message) {
        return new GatewayException(400, "invalid_request_error", null, param, message);
    }




    public static GatewayException methodNotAllowed(String method, String path) {
        return new GatewayException(405, "invalid_request_error", "method_not_allowed", null,
                "Method " + method + " is not allowed on " + path);
    }

    public static GatewayException unsupportedMediaType(String contentType) {
        return new GatewayException(415, "invalid_request_error", "unsupported_media_type", null,
                "Content-Type must be application/json, got " + (contentType == null ? "none" : "'" + contentType + "'"));
    }

    public static GatewayException bodyTooLarge(long limit) {
        return new GatewayException(413, "invalid_request_error", "request_too_large", null,
                "Request body is larger than the limit of " + limit + " bytes");
    }

    public static GatewayException noEndpoint(String pool) {
        return new GatewayException(503, "server_error", "no_endpoint", null,
                "No model server is available for pool '" + pool + "'");
    }

    public static GatewayException upstreamUnavailable() {
        return new GatewayException(502, "server_error", "upstream_unavailable", null,
                "The model server could not be reached");
    }

    public static GatewayException upstreamTimeout() {
        return new GatewayException(504, "server_error", "upstream_timeout", null,
                "The model server did not answer in time");
    }

    public static GatewayException internal() {
        return new GatewayException(500, "server_error", "internal_error", null,
                "The gateway failed to process the request");
    }
}
