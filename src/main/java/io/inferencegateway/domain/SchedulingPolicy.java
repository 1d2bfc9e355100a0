package io.inferencegateway.domain;

import java.util.List;


/** Picks the endpoint of a pool that should serve a request. Called on the request path: no blocking. */
public interface SchedulingPolicy {

    /**
     * @param candidates the pool's endpoints that may take the request; never empty
     * @return one of the candidates
     */
    Endpoint choose(InferenceRequest request, List<Endpoint> candidates);

    /**
     * Like {@link #choose}, and says why. Policies that can explain their choice (the GPU-aware one) override it;
     * the request path calls this one.
     */
    default PickDecision decide(InferenceRequest request, List<Endpoint> candidates) {
        return PickDecision.byPolicy(choose(request, candidates), candidates.size());
    }

    /**
     * Like {@link #decide}, but leaves what the decision teaches the policy (the GPU-aware policy's prefix index: the
     * chosen pod now holds the prompt) to the returned pick's {@link PendingPick#commit}, which the caller runs once
     * the request is on its way. The in-flight count is the caller's, as with {@link #decide}. Policies that learn
     * nothing from their decisions return the decision itself; {@link #decide} is this plus the commit at once.
     */
    default PendingPick decideDeferred(InferenceRequest request, List<Endpoint> candidates) {
        return decide(request, candidates);
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
     * Told the pool's complete endpoint list whenever it changes, so that per-endpoint state of pods that
     * left (the GPU-aware policy's prefix index) is dropped. Stateless policies ignore it.
     */
    default void endpointsChanged(List<Endpoint> current) {
    }

    /**
     * How many of a prompt's first characters the policy reads ({@link InferenceRequest#promptText()}): the request
     * parser decodes no more of a long prompt (openai/InferenceRequestParser.java). All of it unless a policy says.
     */
    default int promptChars() {
        return Integer.MAX_VALUE;
    }
}
