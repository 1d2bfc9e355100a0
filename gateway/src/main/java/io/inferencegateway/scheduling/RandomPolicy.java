package io.inferencegateway.scheduling;

import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.domain.PickDecision;
import io.inferencegateway.domain.SchedulingPolicy;

/** Baseline {@code random}: a uniformly random endpoint. */
public final class RandomPolicy implements SchedulingPolicy {

    @Override
    public PickDecision decide(InferenceRequest request, List<Endpoint> candidates) {
        return PickDecision.byPolicy(candidates.get(ThreadLocalRandom.current().nextInt(candidates.size())),
                candidates.size());
    }

    /** Blind to the prompt. */
    @Override
    public int promptChars() {
        return 0;
    }
}
