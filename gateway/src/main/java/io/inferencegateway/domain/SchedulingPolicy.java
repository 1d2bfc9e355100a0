package io.inferencegateway.domain;

import java.util.List;

/**
 * How a pool chooses the endpoint that serves a request. Called on the request path: no blocking. The request's
 * in-flight count is the caller's (pool/Placement.java).
 */
public interface SchedulingPolicy {

    /**
     * Begins scheduling {@code request} among {@code candidates} (never empty): the one snapshot that admission and
     * the pick share. The caller ends it, with {@link Scheduling#pick} or {@link Scheduling#close}.
     *
     * @param waitedNanos how long the request waited in the gateway's queue already: its latency targets are that much
     *                    shorter now
     */
    Scheduling begin(InferenceRequest request, List<Endpoint> candidates, long waitedNanos);

    /**
     * Who of the policy learns how the requests it placed fared (its latency predictor), told by the request's
     * ending next to the gateway's own listeners. Nobody for a policy that learns nothing.
     */
    default RequestListener lifecycle() {
        return RequestListener.NONE;
    }

    /**
     * Told the pool's complete endpoint list whenever it changes, so that per-endpoint state of pods that left (the
     * prefix index) is dropped. Stateless policies ignore it.
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

    /** Begins, picks and commits at once, for a request that has not waited: for tests, benchmarks and the lab. */
    static PickDecision decideNow(SchedulingPolicy policy, InferenceRequest request, List<Endpoint> candidates) {
        PendingPick pick = policy.begin(request, candidates, 0).pick();
        pick.commit();
        return pick.decision();
    }
}
