package io.inferencegateway.scheduling.framework;

import java.util.List;

import io.inferencegateway.scheduling.prefix.PrefixSharing;
import io.inferencegateway.scheduling.prefix.RendezvousHomes;

/**
 * A scorer that can also credit each prefix's rendezvous home, so that several gateway replicas in front of the
 * same pods send a shared prefix to the same pod ({@code replicas.placement: rendezvous}; docs/scheduling.md,
 * "Several gateway replicas").
 */
public interface PlacementAware {

    /** The same scorer, sharing its state, that also follows {@code placement}. */
    Scorer placedBy(RendezvousHomes placement);

    /**
     * The same scorer, sharing its state, that also learns the other replicas' decisions through {@code sharing} and
     * tells them its own ({@code replicas.placement: shared}); while they cannot be reached, it follows
     * {@code whileAway} for prefixes no pod holds.
     */
    Scorer sharedBy(PrefixSharing sharing, RendezvousHomes whileAway);

    /**
     * The request's home among {@code states} by its placement, with each state's in-flight requests as its load;
     * -1 when this scorer follows no placement or the prompt has no full block. The policy's fallback uses it, so
     * that replicas keep sending a prefix to one pod while metrics are stale.
     */
    int home(SchedulingCycle cycle, List<EndpointState> states);
}
