package io.inferencegateway.domain;

import java.util.List;


/** Picks the endpoint of a pool that should serve a request. Called on the request path: no blocking. */
public interface SchedulingPolicy {

    /**
     * Chooses one of {@code candidates} and says why. What the decision teaches the policy (the GPU-aware policy's
     * prefix index: the chosen pod now holds the prompt) waits for the returned pick's {@link PendingPick#commit},
     * which the caller runs once the request is on its way, so that the request does not wait for it; policies that
     * learn nothing from their decisions return the {@link PickDecision} itself. The request's in-flight count is the
     * caller's (pool/Placement.java).
     *
     * @param candidates the pool's endpoints that may take the request; never empty
     */
    PendingPick decide(InferenceRequest request, List<Endpoint> candidates);

    /** Decides and commits at once: for callers that learn the outcome only (tests, benchmarks, the lab). */
    static PickDecision decideNow(SchedulingPolicy policy, InferenceRequest request, List<Endpoint> candidates) {
        PendingPick pick = policy.decide(request, candidates);
        pick.commit();
        return pick.decision();
    }

    /**
     * Whether no candidate has room for another request right now, so that the request should wait in the gateway
     * rather than be pushed into a full pod's queue (pool/FlowControl.java). Policies without a load signal never
     * say so. Called on the request path before {@link #decide}: cheap, no blocking, no side effect.
     */
    default boolean saturated(List<Endpoint> candidates) {
        return false;
    }

    /**
     * The share of {@code candidates} with fresh metrics that have no room for another request, as {@link #saturated}
     * judges each one: 0..1, NaN for a policy without a load signal or when no candidate's metrics are fresh. Read by
     * the capacity summary ({@code GET /capacity}), off the request path.
     */
    default double saturatedFraction(List<Endpoint> candidates) {
        return Double.NaN;
    }

    /**
     * The latency the best of {@code candidates} is predicted to serve {@code request} with: the one whose prediction
     * falls shortest of the request's targets ({@link LatencyPrediction#ratio}). Null when the policy does not predict
     * latency or has not learned enough yet; then flow control decides by {@link #saturated} alone. Called on the
     * request path for requests with targets: cheap, no blocking, no side effect.
     */
    default LatencyPrediction bestPrediction(InferenceRequest request, List<Endpoint> candidates) {
        return null;
    }

    /**
     * Told the pool's complete endpoint list whenever it changes, so that per-endpoint state of pods that
     * left (the GPU-aware policy's prefix index) is dropped. Stateless policies ignore it.
     */
    default void endpointsChanged(List<Endpoint> current) {
    }

    /**
     * Where the policy may read what the gateway saw fail at each endpoint lately (the pool's outlier detection); told
     * once, when the pool is made. Policies that do not weigh failures ignore it.
     */
    default void recentFailures(RecentFailures failures) {
    }

    /**
     * How many of a prompt's first characters the policy reads ({@link InferenceRequest#promptText()}): the request
     * parser decodes no more of a long prompt (openai/InferenceRequestParser.java). All of it unless a policy says.
     */
    default int promptChars() {
        return Integer.MAX_VALUE;
    }
}
