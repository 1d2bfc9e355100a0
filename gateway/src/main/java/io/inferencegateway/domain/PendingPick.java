package io.inferencegateway.domain;

/**
 * A scheduling decision whose lesson for the policy is still to be applied: that the chosen pod now holds the prompt
 * (the GPU-aware policy's prefix index learns it, and with shared placement tells the other replicas). The request
 * path applies it once the request has been handed to the upstream connection, so that the request does not wait for
 * the index update (processors/io/inferencegateway/camel/UpstreamProducer.java); see {@link Scheduling#pick}.
 */
public interface PendingPick {

    PickDecision decision();

    /**
     * Applies what the decision teaches the policy. Call exactly once per decision, from any thread, also when the
     * request fails or its client goes away; until then other decisions do not see it.
     */
    void commit();
}
