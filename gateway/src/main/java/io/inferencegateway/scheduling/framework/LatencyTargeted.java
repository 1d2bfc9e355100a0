package io.inferencegateway.scheduling.framework;

/**
 * A plugin that reads the candidates' predicted latency ({@link EndpointState#latencyRatio}): the latency target filter
 * and scorer. The policy predicts every candidate of a request with latency targets, and flow control admits such a
 * request by the prediction, only when its profile has one (docs/slo.md); a profile without one routes and admits as
 * if no request had targets.
 */
public interface LatencyTargeted {
}
