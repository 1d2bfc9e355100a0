package io.inferencegateway.domain;

import java.util.Objects;

/**
 * The outcome of one scheduling decision.
 *
 * @param endpoint              the chosen endpoint
 * @param reason                what decided it
 * @param expectedCachedTokens  prompt tokens the scheduler expects the chosen pod to serve from its prefix cache
 *                              (0 when it expects none or does not track prefixes)
 * @param candidates            how many endpoints were considered
 */
public record PickDecision(Endpoint endpoint, PickReason reason, int expectedCachedTokens, int candidates) {

    public PickDecision {
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(reason, "reason");
    }

    /** A decision by a policy that does not explain itself. */
    public static PickDecision byPolicy(Endpoint endpoint, int candidates) {
        return new PickDecision(endpoint, candidates == 1 ? PickReason.ONLY_CANDIDATE : PickReason.POLICY, 0,
                candidates);
    }
}
