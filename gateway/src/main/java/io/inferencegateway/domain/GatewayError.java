package io.inferencegateway.domain;

import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * A request the gateway refuses or cannot serve: what went wrong, the request field at fault if one is, and a message
 * for the client (so it never holds internals). Protocol-neutral: the edge decides which status and body a client
 * sees (io.inferencegateway.openai.OpenAiErrors).
 */
public class GatewayError extends RuntimeException {

    /** What went wrong. */
    public enum Reason {
        INVALID_REQUEST,
        UNSUPPORTED_MEDIA_TYPE,
        REQUEST_TOO_LARGE,
        UNKNOWN_URL,
        METHOD_NOT_ALLOWED,
        MODEL_NOT_FOUND,
        /** The model's pool has no endpoint to send to. */
        NO_ENDPOINT,
        /** No endpoint of the pool accepted a connection. */
        UPSTREAM_UNAVAILABLE,
        /** Every pod tried answered 502 or 503 (the last one this): the model servers would not take the request. */
        UPSTREAM_REFUSED,
        /** The model server's response broke off after it started. */
        UPSTREAM_BROKEN,
        UPSTREAM_TIMEOUT,
        CLIENT_CLOSED,
        /** The gateway is draining before it exits and takes no new work. */
        SHUTTING_DOWN,
        /** No credentials, or credentials that prove no one (spec.auth). */
        UNAUTHENTICATED,
        /** The caller's tenant may not use the requested model. */
        MODEL_NOT_ALLOWED,
        /** The caller's credentials name a tenant the config does not list. */
        TENANT_NOT_ALLOWED,
        /** The tenant's requests-per-minute limit is reached. */
        REQUESTS_RATE_LIMITED,
        /** The tenant's tokens-per-minute limit is reached. */
        TOKENS_RATE_LIMITED,
        /** The shared rate-limit store cannot be reached and the limits fail closed. */
        RATE_LIMITER_UNAVAILABLE,
        /** Every pod of the pool is saturated and the request may not wait for one (see {@link #overloaded}). */
        OVERLOADED,
        INTERNAL
    }

    private final Reason reason;
    private final String param;
    private final Map<String, String> headers;

    public GatewayError(Reason reason, String param, String message) {
        this(reason, param, message, Map.of());
    }

    /** @param headers HTTP headers the client's error response carries, e.g. {@code Retry-After} */
    public GatewayError(Reason reason, String param, String message, Map<String, String> headers) {
        super(message, null, false, false);
        this.reason = reason;
        this.param = param;
        this.headers = Map.copyOf(headers);
    }

    /** HTTP headers the error response carries besides the usual ones. */
    public Map<String, String> headers() {
        return headers;
    }

    public Reason reason() {
        return reason;
    }

    /** The request field at fault, or null. */
    public String param() {
        return param;
    }

    public static GatewayError invalidRequest(String param, String message) {
        return new GatewayError(Reason.INVALID_REQUEST, param, message);
    }

    public static GatewayError unknownUrl(String method, String path) {
        return new GatewayError(Reason.UNKNOWN_URL, null, "Invalid URL (" + method + " " + path + ")");
    }

    /** @param allow the methods the path takes, for the response's {@code Allow} */
    public static GatewayError methodNotAllowed(String method, String path, String allow) {
        return new GatewayError(Reason.METHOD_NOT_ALLOWED, null, "Method " + method + " is not allowed on " + path,
                Map.of("Allow", allow));
    }

    public static GatewayError unsupportedMediaType(String contentType) {
        return new GatewayError(Reason.UNSUPPORTED_MEDIA_TYPE, null, "Content-Type must be application/json "
                + "(multipart/form-data for uploads), got " + (contentType == null ? "none" : "'" + contentType + "'"));
    }

    public static GatewayError requestTooLarge(long limit) {
        return new GatewayError(Reason.REQUEST_TOO_LARGE, null,
                "Request body is larger than the limit of " + limit + " bytes");
    }

    public static GatewayError shuttingDown() {
        return new GatewayError(Reason.SHUTTING_DOWN, null,
                "The gateway is shutting down and takes no new requests; retry on another instance");
    }

    /** The header of flow control's 429s, which says why (the {@link Dropped} reason). */
    public static final String DROPPED_REASON_HEADER = "x-gateway-dropped-reason";

    /** Why flow control refused a request; the {@code x-gateway-dropped-reason} header's values. */
    public enum Dropped {
        /** A sheddable request (negative priority) arrived while every pod was saturated. */
        SHEDDABLE_SATURATED,
        /** The pool's queue was full of requests of the same or higher priority. */
        QUEUE_FULL,
        /** The request waited longer than the pool's {@code queueTimeout}. */
        QUEUE_TIMEOUT,
        /** The queue was full and a request of higher priority took this one's place. */
        DISPLACED,
        /** No pod is predicted to serve the request within its latency targets, and its priority does not insist. */
        SLO_UNATTAINABLE,
        /** The request waited in the queue until it could no longer be served within its latency targets. */
        SLO_DEADLINE;

        public String header() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** A 429 from flow control, telling the client when to retry and why it was refused. */
    public static GatewayError overloaded(String pool, Dropped why, long retryAfterSeconds) {
        return overloaded(pool, why, null, retryAfterSeconds);
    }

    /** As above, with {@code detail} (what was predicted) appended to the message when not null. */
    public static GatewayError overloaded(String pool, Dropped why, String detail, long retryAfterSeconds) {
        String message = switch (why) {
            case SHEDDABLE_SATURATED -> "Every model server of pool '" + pool + "' is saturated and the request is "
                    + "sheddable";
            case QUEUE_FULL -> "Every model server of pool '" + pool + "' is saturated and its queue is full";
            case QUEUE_TIMEOUT -> "Every model server of pool '" + pool + "' stayed saturated for longer than the "
                    + "request may wait";
            case DISPLACED -> "Every model server of pool '" + pool + "' is saturated and requests of higher "
                    + "priority took the queue";
            case SLO_UNATTAINABLE -> "No model server of pool '" + pool + "' is predicted to serve the request within "
                    + "its latency targets";
            case SLO_DEADLINE -> "The request waited for a model server of pool '" + pool + "' until it could no "
                    + "longer be served within its latency targets";
        };
        if (detail != null) {
            message += " (" + detail + ")";
        }
        return new GatewayError(Reason.OVERLOADED, null, message + "; retry after " + retryAfterSeconds + " s",
                Map.of("Retry-After", Long.toString(retryAfterSeconds), DROPPED_REASON_HEADER, why.header()));
    }

    public static GatewayError noEndpoint(String pool) {
        return new GatewayError(Reason.NO_ENDPOINT, null, "No model server is available for pool '" + pool + "'");
    }

    /**
     * A 503 at a global tier: every cluster and provider left for the request is one its tenant's data-residency pin
     * forbids ({@code residency} says which regions, and whether providers, are allowed).
     */
    public static GatewayError noAllowedTarget(String pool, Residency residency) {
        StringBuilder sb = new StringBuilder("No cluster or provider of pool '").append(pool)
                .append("' that this request may use is available: its tenant is pinned to ");
        sb.append(residency.regions().isEmpty() ? "any region" : "region(s) "
                + String.join(", ", new TreeSet<>(residency.regions())));
        sb.append(residency.providers() ? "" : " and barred from external providers");
        return new GatewayError(Reason.NO_ENDPOINT, null, sb.toString());
    }

    /** At a global tier: every cluster this request may use has stopped answering its capacity poll. */
    public static GatewayError noAnsweringCluster(String pool) {
        return new GatewayError(Reason.NO_ENDPOINT, null, "No cluster of pool '" + pool + "' that this request may use "
                + "has answered its capacity poll lately: they are unreachable or down");
    }

    public static GatewayError upstreamUnavailable() {
        return new GatewayError(Reason.UPSTREAM_UNAVAILABLE, null, "The model server could not be reached");
    }

    /**
     * The pods tried answered 502 or 503 and no other may be tried: the gateway answers in OpenAI's shape, whatever shape
     * the model server's error body had (vLLM's and others' differ).
     */
    public static GatewayError upstreamRefused(int status) {
        return status == 503
                ? new GatewayError(Reason.UPSTREAM_REFUSED, null,
                        "The model server is unavailable (503) and no other could take the request")
                : new GatewayError(Reason.UPSTREAM_UNAVAILABLE, null,
                        "The model server answered " + status + " and no other could take the request");
    }

    public static GatewayError upstreamBroken() {
        return new GatewayError(Reason.UPSTREAM_BROKEN, null, "The model server closed the stream before it ended");
    }

    public static GatewayError upstreamTimeout() {
        return new GatewayError(Reason.UPSTREAM_TIMEOUT, null, "The model server did not answer in time");
    }

    public static GatewayError clientClosed() {
        return new GatewayError(Reason.CLIENT_CLOSED, null, "The client closed the connection");
    }

    /** A 401 that tells the client to send a bearer token ({@code WWW-Authenticate: Bearer}). */
    public static GatewayError unauthenticated(String message) {
        return new GatewayError(Reason.UNAUTHENTICATED, null, message, Map.of("WWW-Authenticate", "Bearer"));
    }

    public static GatewayError modelNotAllowed(String model) {
        return new GatewayError(Reason.MODEL_NOT_ALLOWED, "model", "Your credentials do not give access to the model '"
                + model + "'");
    }

    public static GatewayError tenantNotAllowed() {
        return new GatewayError(Reason.TENANT_NOT_ALLOWED, null, "Your credentials name a tenant this gateway does "
                + "not serve");
    }

    public static GatewayError rateLimitStoreUnavailable() {
        return new GatewayError(Reason.RATE_LIMITER_UNAVAILABLE, null,
                "The rate limiter is unavailable and requests are refused until it returns; retry shortly");
    }

    public static GatewayError internal() {
        return new GatewayError(Reason.INTERNAL, null, "The gateway failed to process the request");
    }
}
