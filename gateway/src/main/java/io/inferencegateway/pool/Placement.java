package io.inferencegateway.pool;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.domain.InFlightRequests;
import io.inferencegateway.domain.GatewayError;
import io.inferencegateway.domain.PendingPick;
import io.inferencegateway.domain.PickDecision;
import io.inferencegateway.domain.PickReason;
import io.inferencegateway.domain.RequestListener;
import io.inferencegateway.domain.Scheduling;

/**
 * Where one request is being served: the endpoint its pool's policy chose, and the endpoints tried
 * before it. Counts the request in flight on its endpoint until {@link #finish()}; when the endpoint
 * cannot be reached before any byte was sent, {@link #failover()} asks the policy for another one.
 *
 * <p>What a decision teaches the policy (its prefix index) waits for {@link #commit()}, which the caller runs once
 * the request is on its way to the endpoint; at the latest {@link #finish()} and the next {@link #failover()} run it.
 * Every decision is committed once, whatever becomes of the request: a pod that failed was still sent the prompt.
 */
public final class Placement {

    private final ModelPool pool;
    private final InferenceRequest request;
    private final InFlightRequests inFlight;
    private final List<Endpoint> tried = new ArrayList<>(2);
    private PickDecision decision;
    private PendingPick uncommitted;
    private boolean finished;
    private int prefilling; // prompt tokens counted as still to compute on the current endpoint

    private Placement(ModelPool pool, InferenceRequest request, PendingPick first) {
        this.pool = pool;
        this.request = request;
        this.inFlight = pool.inFlight();
        start(first, first.decision());
    }

    /** Picks the endpoint for a request and counts it in flight there; 503 when the pool has none. */
    public static Placement choose(ModelPool pool, InferenceRequest request) {
        List<Endpoint> candidates = pool.endpoints();
        if (candidates.isEmpty()) {
            throw GatewayError.noEndpoint(pool.name());
        }
        return place(pool, request, pool.policy().begin(request, pool.outliers().admitted(candidates), 0));
    }

    /**
     * Picks the endpoint for a request on the scheduling its admission began (the same snapshot), and counts it in
     * flight there.
     */
    public static Placement place(ModelPool pool, InferenceRequest request, Scheduling scheduling) {
        pool.retryBudget().request();
        return new Placement(pool, request, scheduling.pick());
    }

    public Endpoint endpoint() {
        return decision.endpoint();
    }

    /** The decision that chose the current endpoint; after a failover its reason is {@link PickReason#FAILOVER}. */
    public PickDecision decision() {
        return decision;
    }

    public ModelPool pool() {
        return pool;
    }

    public InferenceRequest request() {
        return request;
    }

    public Duration routeTimeout() {
        return pool.config().routeTimeout();
    }

    /**
     * The current endpoint could not be reached: moves the request to another endpoint of the pool that
     * was not tried yet (one whose last request did not fail, while there is such), or returns null when none is left.
     */
    public synchronized Endpoint failover() {
        commit();
        release();
        List<Endpoint> left = new ArrayList<>(pool.endpoints());
        left.removeAll(tried);
        if (left.isEmpty()) {
            return null;
        }
        left = pool.outliers().lastRequestServed(pool.outliers().admitted(left));
        PendingPick next;
        try {
            next = pool.policy().begin(request, left, 0).pick();
        } catch (GatewayError e) { // at a global tier: none of those left may serve this request (its residency)
            return null;
        }
        PickDecision d = next.decision();
        start(next, new PickDecision(d.endpoint(), PickReason.FAILOVER, d.expectedCachedTokens(), left.size(),
                d.prediction()));
        return decision.endpoint();
    }

    /**
     * Lets the policy learn from the current decision (its prefix index: the endpoint now holds the prompt), once the
     * request is on its way there; a second call, or one after {@link #finish()}, does nothing. Any thread.
     */
    public void commit() {
        PendingPick pick;
        synchronized (this) {
            pick = uncommitted;
            uncommitted = null;
        }
        if (pick != null) {
            pick.commit();
        }
    }

    /** Who of the pool's policy learns how the request fared (docs/architecture.md, the request's lifecycle). */
    public RequestListener lifecycle() {
        return pool.policy().lifecycle();
    }

    /** How many endpoints were tried, the current one included. */
    public synchronized int attempts() {
        return tried.size();
    }

    /**
     * The response ended (or failed); safe to call more than once. The pod has room for one more, so the pool's
     * queue may let a waiting request go.
     */
    public void finish() {
        commit();
        boolean released;
        synchronized (this) {
            released = release();
        }
        if (released) {
            pool.flowControl().dispatch();
        }
    }

    private void start(PendingPick pick, PickDecision d) {
        uncommitted = pick;
        decision = d;
        tried.add(d.endpoint());
        finished = false;
        inFlight.started(d.endpoint(), request.promptTokensEstimate());
        prefilling = Math.max(0, request.promptTokensEstimate() - d.expectedCachedTokens());
        inFlight.prefilling(d.endpoint(), prefilling);
    }

    /**
     * The endpoint computed the prompt (its first token came back): its tokens no longer wait for a prefill there. Any
     * thread; a second call does nothing.
     */
    public synchronized void prefilled() {
        if (prefilling > 0) {
            inFlight.prefilling(decision.endpoint(), -prefilling);
            prefilling = 0;
        }
    }

    private boolean release() {
        if (finished) {
            return false;
        }
        finished = true;
        prefilled();
        inFlight.finished(decision.endpoint());
        return true;
    }
}
