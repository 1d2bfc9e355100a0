package io.inferencegateway.scheduling.framework;

import java.util.List;

import io.inferencegateway.domain.PickReason;

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

    /**
     * What it means when this scorer decides a pick (its weighted score separated the winner from the
     * runner-up more than any other scorer's did): the pick's reason in metrics and logs. Most scorers rate
     * load, hence the default.
     */
    default PickReason reason() {
        return PickReason.LEAST_LOADED;
    }

    /**
     * What it means when this scorer decides the pick of {@code cycle}'s request: {@link #reason()} unless the scorer's
     * meaning depends on the request (the priority scorer: fastest for critical, cheapest for sheddable requests).
     */
    default PickReason reason(SchedulingCycle cycle) {
        return reason();
    }
}
