package io.inferencegateway.scheduling.framework;

import java.util.List;

import io.inferencegateway.domain.PendingPick;
import io.inferencegateway.domain.PickDecision;

/**
 * One request thread's {@link DeferredPick}s: one is reused once it is committed on this thread (the request path
 * commits on the thread that decided: processors/io/inferencegateway/camel/UpstreamProducer.java), one committed
 * elsewhere is left to the garbage collector; a few are kept, for decisions made before the last ones were committed.
 * Not thread-safe: made by, and used on, one thread.
 */
public final class DeferredPicks {

    /** The most committed picks kept for reuse. */
    static final int KEPT = 8;

    private final Thread thread = Thread.currentThread();
    private final DeferredPick[] free = new DeferredPick[KEPT];
    private int freeCount;

    /**
     * The decision that {@code chosen} made in {@code cycle}, with the {@code observers} told on its commit; the
     * decision itself when there is nobody to tell.
     */
    public PendingPick defer(List<PickObserver> observers, SchedulingCycle cycle, EndpointState chosen,
            PickDecision decision) {
        if (observers.isEmpty()) {
            return decision;
        }
        DeferredPick pick;
        if (freeCount > 0) {
            pick = free[--freeCount];
            free[freeCount] = null;
        } else {
            pick = new DeferredPick(this);
        }
        pick.fill(observers, cycle, chosen, decision);
        return pick;
    }

    void recycle(DeferredPick pick) {
        if (Thread.currentThread() == thread && freeCount < KEPT) {
            free[freeCount++] = pick;
        }
    }
}
