package io.inferencegateway.scheduling.framework;

import io.inferencegateway.scheduling.prefix.PrefixPlacement;

/**
 * A scorer that can also credit each prefix's rendezvous home, so that several gateway replicas in front of the
 * same pods send a shared prefix to the same pod ({@code replicas.placement: rendezvous}; docs/scheduling.md,
 * "Several gateway replicas").
 */
public interface PlacementAware {

    /** The same scorer, sharing its state, that also follows {@code placement}. */
    Scorer placedBy(PrefixPlacement placement);
}
