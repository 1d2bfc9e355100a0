package io.inferencegateway.scheduling;

import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.PickDecision;

/** Baseline {@code random}: a uniformly random endpoint. */
public final class RandomPolicy extends BlindPolicy {

    @Override
    PickDecision choose(List<Endpoint> candidates) {
        return PickDecision.byPolicy(candidates.get(ThreadLocalRandom.current().nextInt(candidates.size())),
                candidates.size());
    }
}
