package io.inferencegateway.domain;

import java.util.Objects;

/**
 * The outcome of one scheduling decision. As a {@link PendingPick} it is a decision with nothing left to teach its
 * policy (one that learns nothing from its decisions, or whose lesson was applied already): its commit does nothing.
 *
 * @param endpoint              the chosen endpoint
 * @param reason                what decided it
 * @param expectedCachedTokens  prompt tokens the scheduler expects the chosen pod to serve from its prefix cache
 *                              (0 when it expects none or does not track prefixes)
 * @param candidates            how many endpoints were considered
 * @param prediction            the latency predicted on the chosen endpoint, or null when the policy does not predict
 */
public record PickDecision(Endpoint endpoint, PickReason reason, int expectedCachedTokens, int candidates,
        LatencyPrediction prediction) implements PendingPick {

    public PickDecision(Endpoint endpoint, PickReason reason, int expectedCachedTokens, int candidates) {
        this(endpoint, reason, expectedCachedTokens, candidates, null);
    }

    public PickDecision {
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(reason, "reason");
    }

    @Override
    public PickDecision decision() {
        return this;
    }

    @Override
    public void commit() {
    }

    /** A decision by a policy that does not explain itself. */
    public static PickDecision byPolicy(Endpoint endpoint, int candidates) {
        return new PickDecision(endpoint, candidates == 1 ? PickReason.ONLY_CANDIDATE : PickReason.POLICY, 0,
                candidates);
    }
}
