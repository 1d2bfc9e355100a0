package io.inferencegateway.scheduling;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.domain.PickDecision;
import io.inferencegateway.domain.SchedulingPolicy;

/** Baseline {@code round-robin}: every endpoint in turn, blind to load. */
public final class RoundRobinPolicy implements SchedulingPolicy {

    private final AtomicInteger next = new AtomicInteger();

    @Override
    public PickDecision decide(InferenceRequest request, List<Endpoint> candidates) {
        return PickDecision.byPolicy(candidates.get(Math.floorMod(next.getAndIncrement(), candidates.size())),
                candidates.size());
    }

    /** Blind to the prompt. */
    @Override
    public int promptChars() {
        return 0;
    }
}
