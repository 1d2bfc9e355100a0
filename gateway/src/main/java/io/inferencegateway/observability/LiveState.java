package io.inferencegateway.observability;

import java.util.List;
import java.util.function.Supplier;

import io.inferencegateway.domain.InFlightRequests;
import io.inferencegateway.domain.NanoClock;
import io.inferencegateway.metrics.EndpointMetrics;
import io.inferencegateway.metrics.MetricsCache;
import io.inferencegateway.pool.ModelPool;
import io.inferencegateway.pool.ModelPools;

/**
 * What the fleet page and the capacity summary read when they are asked, never on the request path: its pools as they
 * are now (a reload replaces them), what each pod last reported, the gateway's own requests in flight, and its clock.
 */
public record LiveState(Supplier<ModelPools> pools, MetricsCache metrics, InFlightRequests inFlight, NanoClock clock) {

    /**
     * The last scrapes of the pool's ready pods: those whose metrics are fresher than the pool's staleness threshold
     * (the capacity summary's ready pods, as {@code inference_pool_ready_pods} counts them).
     */
    public List<EndpointMetrics> readyPods(ModelPool pool) {
        return metrics.fresh(pool.endpoints(), clock.nanoTime(), pool.config().metricsStalenessThreshold());
    }
}
