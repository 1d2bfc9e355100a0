package io.inferencegateway.domain;

/**
 * Learns how inference requests fare, hook by hook through each request's life: the meters, the access log, the
 * tracer, the fleet page, the rate limiter and the rollouts gateway-wide; and, for the requests its pool placed, the
 * scheduler's own learners (its latency predictor; {@link SchedulingPolicy#lifecycle}). Called on the request's event
 * loop, so an implementation must not block; it must not keep the record past {@link #ended} unless it copies what it
 * needs.
 */
public interface RequestListener {

    /** Hears nothing. */
    RequestListener NONE = record -> {
    };

    /** The request arrived and its body was parsed (or failed to parse). */
    default void started(RequestRecord record) {
    }

    /** The scheduler chose an endpoint (again after a failover), just before the request is sent to it. */
    default void picked(RequestRecord record) {
    }

    /** The model server's response headers arrived ({@link RequestRecord#status()}, {@link RequestRecord#headersNanos()}). */
    default void responseHeaders(RequestRecord record) {
    }

    /** The first generated content passed ({@link RequestRecord#firstTokenNanos()}); for a plain body, the whole body. */
    default void firstToken(RequestRecord record) {
    }

    /** A chunk of {@code bytes} of the response's body passed to the client. */
    default void chunk(RequestRecord record, int bytes) {
    }

    /** The request ended, one way or another; called exactly once. */
    void ended(RequestRecord record);
}
