package io.inferencegateway.scheduling;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.InFlightRequests;
import io.inferencegateway.domain.PickDecision;

/**
 * Baseline {@code least-request}: the endpoint with the fewest requests in flight through this gateway.
 * Ties go round the candidates so that an idle pool is not served by its first pod only.
 */
public final class LeastRequestPolicy extends BlindPolicy {

    private final InFlightRequests inFlight;
    private final AtomicInteger offset = new AtomicInteger();

    public LeastRequestPolicy(InFlightRequests inFlight) {
        this.inFlight = inFlight;
    }

    @Override
    PickDecision choose(List<Endpoint> candidates) {
        int n = candidates.size();
        int start = Math.floorMod(offset.getAndIncrement(), n);
        Endpoint best = null;
        long bestLoad = Long.MAX_VALUE;
        for (int i = 0; i < n; i++) {
            Endpoint e = candidates.get((start + i) % n);
            long load = inFlight.inFlight(e);
            if (load < bestLoad) {
                best = e;
                bestLoad = load;
            }
        }
        return PickDecision.byPolicy(best, n);
    }
}
