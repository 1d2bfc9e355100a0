package io.inferencegateway.domain;

/**
 * Learns about inference requests: the meters, the access log, the tracer, the fleet page. Called on the request's
 * event loop, so an implementation must not block; it must not keep the record past {@link #ended} unless it copies
 * what it needs.
 */
public interface RequestListener {

    /** The request arrived and its body was parsed (or failed to parse). */
    default void started(RequestRecord record) {
    }

    /** The scheduler chose an endpoint (again after a failover), just before the request is sent to it. */
    default void picked(RequestRecord record) {
    }

    /** The request ended, one way or another; called exactly once. */
    void ended(RequestRecord record);
}
