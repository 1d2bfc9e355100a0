package io.inferencegateway.lab.bench.workload;

/**
 * One request of a run: when it is meant to be sent and what it asks.
 *
 * @param index        position in the run, 0-based; also sent as the {@code X-Request-Id} suffix
 * @param offsetNanos  intended send time in simulated nanoseconds after the run start
 */
public record PlannedRequest(int index, long offsetNanos, RequestSpec spec) {
}
