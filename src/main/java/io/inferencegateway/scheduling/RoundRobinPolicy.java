package io.inferencegateway.scheduling;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import io.inferencegateway.core.Endpoint;
import io.inferencegateway.core.InferenceRequest;

/** Baseline {@code round-robin}: every endpoint in turn, blind to load. */
public final class RoundRobinPolicy implements SchedulingPolicy {

    private final AtomicInteger next = new AtomicInteger();

    @Override
    public Endpoint choose(InferenceRequest request, List<Endpoint> candidates) {
        return candidates.get(Math.floorMod(next.getAndIncrement(), candidates.size()));
    }
}
