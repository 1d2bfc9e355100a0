package io.inferencegateway.core;

/** 404 for a path the gateway does not serve; thrown from the ingress route with "METHOD /path". */
public class UnknownUrlException extends GatewayException {

    public UnknownUrlException(String methodAndPath) {
        super(404, "invalid_request_error", "unknown_url", null, "Invalid URL (" + methodAndPath + ")");
    }
}
