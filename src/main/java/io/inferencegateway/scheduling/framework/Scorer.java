package io.inferencegateway.scheduling.framework;

import java.util.List;

/**
 * Extension point 2 of 3: rates every endpoint for the request. A scorer writes a score in [0,1] per
 * endpoint (higher is better); the framework clamps it, multiplies it by the scorer's weight and sums.
 * Scorers never see their weight, so each one can be reasoned about alone.
 */
@FunctionalInterface
public interface Scorer {

    /**
     * @param scores one slot per endpoint, in the order of {@code endpoints}, zeroed before the call
     */
    void score(SchedulingCycle cycle, List<EndpointState> endpoints, double[] scores);
}
