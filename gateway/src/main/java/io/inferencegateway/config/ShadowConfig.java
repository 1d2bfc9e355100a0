package io.inferencegateway.config;

/**
 * A pool's shadow traffic (docs/shadow.md): a share of its requests is copied to a candidate model or adapter, whose
 * answer is read and discarded. The copy never delays the client's request, has its own small in-flight budget, and is
 * the first thing dropped when the candidate's pool is full.
 *
 * @param model       the candidate: a model or LoRA adapter some pool of pods serves; the copy's body names it
 * @param percent     the share of the pool's requests copied, in (0, 100]
 * @param maxInFlight copies of this pool in flight at once on this gateway; one more is dropped
 */
public record ShadowConfig(String model, double percent, int maxInFlight) {

    /** No shadow traffic: the pool's requests go only where the client asked. */
    public static final ShadowConfig OFF = new ShadowConfig(null, 0, 0);

    /** A budget small enough that a slow candidate holds few connections and pod slots: eight copies at once. */
    public static final int DEFAULT_MAX_IN_FLIGHT = 8;

    public boolean enabled() {
        return model != null;
    }
}
