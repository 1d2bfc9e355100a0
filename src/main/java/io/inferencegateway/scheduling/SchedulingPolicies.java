package io.inferencegateway.scheduling;

import io.inferencegateway.config.PoolConfig;
import io.inferencegateway.core.InFlightRequests;
import io.inferencegateway.core.NanoClock;
import io.inferencegateway.metrics.MetricsView;

/** Builds the policy a pool's config names. */
public final class SchedulingPolicies {

    private SchedulingPolicies() {
    }

    public static SchedulingPolicy create(PoolConfig pool, MetricsView metrics, InFlightRequests inFlight,
            NanoClock clock) {
        return switch (pool.policy()) {
            case ROUND_ROBIN -> new RoundRobinPolicy();
            case LEAST_REQUEST -> new LeastRequestPolicy(inFlight);
            case RANDOM -> new RandomPolicy();
            // placeholder until the GPU-aware scheduler lands
            case GPU_AWARE -> new LeastRequestPolicy(inFlight);
        };
    }
}
