package io.inferencegateway.proxy;

/** Why an upstream call produced no response. */
public record UpstreamFailure(Stage kind, String detail) {

    public enum Stage {
        /** The endpoint could not be reached; nothing was sent, so another endpoint may be tried. */
        CONNECT,
        /** The endpoint took the request but closed the connection or broke before answering. */
        BROKEN,
        /** No response headers within the route timeout. */
        TIMEOUT,
        /** The caller cancelled the call (the client went away). */
        CANCELLED
    }
}
