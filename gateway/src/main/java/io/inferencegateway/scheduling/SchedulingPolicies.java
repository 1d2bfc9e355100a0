package io.inferencegateway.scheduling;

import java.util.concurrent.ThreadLocalRandom;
import java.util.random.RandomGenerator;

import io.inferencegateway.config.PoolConfig;
import io.inferencegateway.domain.InFlightRequests;
import io.inferencegateway.domain.NanoClock;
import io.inferencegateway.domain.RecentFailures;
import io.inferencegateway.metrics.MetricsView;
import io.inferencegateway.domain.SchedulingPolicy;
import io.inferencegateway.scheduling.latency.LatencyPredictor;
import io.inferencegateway.scheduling.prefix.PrefixSharing;

/** Builds the policy a pool's config names. */
public final class SchedulingPolicies {

    /** The calling thread's {@link ThreadLocalRandom}: safe to share between request threads. */
    private static final RandomGenerator THREAD_LOCAL_RANDOM = () -> ThreadLocalRandom.current().nextLong();

    private SchedulingPolicies() {
    }

    public static SchedulingPolicy create(PoolConfig pool, MetricsView metrics, InFlightRequests inFlight,
            NanoClock clock) {
        return create(pool, metrics, inFlight, clock, SchedulerEvents.NONE);
    }

    /**
     * @param events told when the GPU-aware policy falls back to least-request for lack of fresh metrics
     *               and when it recovers (ignored by the baselines)
     */
    public static SchedulingPolicy create(PoolConfig pool, MetricsView metrics, InFlightRequests inFlight,
            NanoClock clock, SchedulerEvents events) {
        return create(pool, metrics, inFlight, clock, events, PrefixSharing.NONE);
    }

    /** @param sharing what the GPU-aware policy's prefix index joins with {@code replicas.placement: shared} */
    public static SchedulingPolicy create(PoolConfig pool, MetricsView metrics, InFlightRequests inFlight,
            NanoClock clock, SchedulerEvents events, PrefixSharing sharing) {
        return create(pool, metrics, inFlight, clock, events, sharing, new LatencyPredictor(pool.name()));
    }

    /** @param predictor the pool's latency predictor, which the GPU-aware policy predicts with and teaches */
    public static SchedulingPolicy create(PoolConfig pool, MetricsView metrics, InFlightRequests inFlight,
            NanoClock clock, SchedulerEvents events, PrefixSharing sharing, LatencyPredictor predictor) {
        return create(pool, metrics, inFlight, clock, events, sharing, predictor, RecentFailures.NONE);
    }

    /** @param failures what the pool's outlier detection saw fail lately, which a global tier's plugins weigh */
    public static SchedulingPolicy create(PoolConfig pool, MetricsView metrics, InFlightRequests inFlight,
            NanoClock clock, SchedulerEvents events, PrefixSharing sharing, LatencyPredictor predictor,
            RecentFailures failures) {
        return switch (pool.policy()) {
            case ROUND_ROBIN -> new RoundRobinPolicy();
            case LEAST_REQUEST -> new LeastRequestPolicy(inFlight);
            case RANDOM -> new RandomPolicy();
            case GPU_AWARE -> PluginPolicy.forPool(pool, metrics, inFlight, clock, events, THREAD_LOCAL_RANDOM,
                    sharing, predictor, failures);
        };
    }
}
