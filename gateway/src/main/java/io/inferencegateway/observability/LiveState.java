package io.inferencegateway.observability;

import java.util.function.Supplier;

import io.inferencegateway.domain.InFlightRequests;
import io.inferencegateway.domain.NanoClock;
import io.inferencegateway.metrics.MetricsCache;
import io.inferencegateway.pool.ModelPools;

/**
 * What the gateway's gauges and the fleet page read when they are asked, never on the request path: its pools as they
 * are now (a reload replaces them), what each pod last reported, the gateway's own requests in flight, and its clock.
 */
public record LiveState(Supplier<ModelPools> pools, MetricsCache metrics, InFlightRequests inFlight, NanoClock clock) {
}
