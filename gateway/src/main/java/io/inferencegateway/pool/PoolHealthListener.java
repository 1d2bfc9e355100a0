package io.inferencegateway.pool;

import java.time.Duration;

import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.GatewayError;

/** Hears a pool's failovers, ejections and flow control (the gateway's meters and log, {@link PoolMeters}). */
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

    /** A request's wait in the pool's queue ended after {@code nanos}. */
    default void waited(String pool, int priority, FlowControl.WaitOutcome outcome, long nanos) {
    }

    /** Flow control refused a request with a 429. */
    default void dropped(String pool, int priority, GatewayError.Dropped why) {
    }
}
