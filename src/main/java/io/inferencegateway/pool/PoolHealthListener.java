package io.inferencegateway.pool;

import java.time.Duration;

import io.inferencegateway.domain.Endpoint;

/** Hears a pool's failovers and ejections (the gateway's meters and log, see runtime/GatewayMeters.java). */
public interface PoolHealthListener {

    PoolHealthListener NONE = new PoolHealthListener() {
    };

    /** A request was sent to another pod; {@code reason} is connect, reset, 502 or 503. */
    default void retried(String pool, String reason) {
    }

    /** A retry was not made because the pool's retry budget was spent. */
    default void retryBudgetExhausted(String pool) {
    }

    default void ejected(String pool, Endpoint pod, Duration forHowLong, String reason) {
    }

    default void readmitted(String pool, Endpoint pod) {
    }
}
