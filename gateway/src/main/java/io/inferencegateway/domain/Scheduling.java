package io.inferencegateway.domain;

/**
 * One request's scheduling cycle, from its admission to its pick: one snapshot of the candidates (each one's last
 * scrape corrected by the gateway's own dispatches, with the facts the scheduler's producers attached), built once
 * when the cycle begins and shared by admission ({@link #saturated}, {@link #admission}) and the pick. Begun by
 * {@link SchedulingPolicy#begin}; ended by {@link #pick} or, for a request that is not picked now (it waits in the
 * pool's queue, or is refused), by {@link #close}.
 *
 * <p>Used by one thread at a time; not thread-safe. Cheap to ask: what admission reads is computed on first use.
 */
public interface Scheduling extends AutoCloseable {

    /**
     * Whether no candidate has room for another request right now (the scheduler's saturation detector finds every
     * candidate with fresh metrics full, and at least one has fresh metrics), so that the request should wait in the
     * gateway rather than be pushed into a full pod's queue. False for a scheduler without a detector.
     */
    boolean saturated();

    /**
     * The share 0..1 of candidates with fresh metrics that the saturation detector finds full; NaN without a detector
     * or when no candidate's metrics are fresh. For the capacity summary ({@code GET /capacity}).
     */
    double saturatedFraction();

    /** What the scheduler's admitters say of the request ({@link AdmissionDecision#PASS} when none has an opinion). */
    AdmissionDecision admission();

    /**
     * Chooses the endpoint, on this cycle's snapshot, and says why; what the decision teaches the scheduler waits for
     * the returned pick's {@link PendingPick#commit}. Ends the cycle: call once.
     *
     * @throws GatewayError when a rule the request must not break leaves no candidate (a tenant's data residency)
     */
    PendingPick pick();

    /** Ends the cycle without a pick; nothing when it was picked or closed already. */
    @Override
    void close();
}
