package io.inferencegateway.scheduling;

import java.util.List;

import io.inferencegateway.domain.AdmissionDecision;
import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.domain.PendingPick;
import io.inferencegateway.domain.PickDecision;
import io.inferencegateway.domain.Scheduling;
import io.inferencegateway.domain.SchedulingPolicy;

/**
 * What the load-blind baselines share: a rule that picks among the candidates alone, blind to load and prompt. Their
 * scheduling has nothing to snapshot: never saturated, no admission of its own, and the pick is the rule's.
 */
abstract class BlindPolicy implements SchedulingPolicy {

    /** The rule: one of {@code candidates} (never empty), with its reason. */
    abstract PickDecision choose(List<Endpoint> candidates);

    @Override
    public final Scheduling begin(InferenceRequest request, List<Endpoint> candidates, long waitedNanos) {
        return new Scheduling() {
            @Override
            public boolean saturated() {
                return false;
            }

            @Override
            public double saturatedFraction() {
                return Double.NaN;
            }

            @Override
            public AdmissionDecision admission() {
                return AdmissionDecision.PASS;
            }

            @Override
            public PendingPick pick() {
                return choose(candidates);
            }

            @Override
            public void close() {
            }
        };
    }

    /** Blind to the prompt. */
    @Override
    public final int promptChars() {
        return 0;
    }
}
