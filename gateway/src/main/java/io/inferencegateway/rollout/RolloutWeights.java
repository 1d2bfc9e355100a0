package io.inferencegateway.rollout;

import io.inferencegateway.config.RolloutConfig;
import io.inferencegateway.config.RolloutConfig.RolloutState;

/** Where each rollout stands: the share of its rewrite's traffic that goes to its candidate now. */
@FunctionalInterface
public interface RolloutWeights {

    /** The candidate's share of {@code rollout}'s traffic, in percent (0..100). */
    int candidatePercent(RolloutConfig rollout);

    /** Every rollout at its first step (none when aborted): what a gateway that keeps no rollout progress serves. */
    RolloutWeights FIRST_STEP = r -> r.state() == RolloutState.ABORTED ? 0 : r.steps().get(0).weight();
}
