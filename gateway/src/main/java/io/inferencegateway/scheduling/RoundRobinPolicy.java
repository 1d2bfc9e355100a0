package io.inferencegateway.scheduling;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.PickDecision;

/** Baseline {@code round-robin}: every endpoint in turn, blind to load. */
public final class RoundRobinPolicy extends BlindPolicy {

    private final AtomicInteger next = new AtomicInteger();

    @Override
    PickDecision choose(List<Endpoint> candidates) {
        return PickDecision.byPolicy(candidates.get(Math.floorMod(next.getAndIncrement(), candidates.size())),
                candidates.size());
    }
}
