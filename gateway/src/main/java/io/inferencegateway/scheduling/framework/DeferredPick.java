package io.inferencegateway.scheduling.framework;

import java.util.List;

import io.inferencegateway.domain.PendingPick;
import io.inferencegateway.domain.PickDecision;

/**
 * A decision whose {@link PickObserver}s (the prefix index) are told when it is committed, not when it is made: it
 * keeps a copy of the decision's prompt blocks and of the chosen endpoint's state, so the cycle that made the decision
 * is free for the next one at once. The observers get a cycle that holds the request, its time and those blocks (no
 * candidates). Pooled per request thread by {@link DeferredPicks}.
 */
public final class DeferredPick implements PendingPick {

    private final DeferredPicks owner;
    private final SchedulingCycle cycle = new SchedulingCycle();
    private final EndpointState chosen = new EndpointState();
    private List<PickObserver> observers = List.of();
    private PickDecision decision;
    private boolean committed = true;

    DeferredPick(DeferredPicks owner) {
        this.owner = owner;
    }

    void fill(List<PickObserver> observers, SchedulingCycle from, EndpointState chosen, PickDecision decision) {
        this.observers = observers;
        from.carryPromptTo(cycle);
        this.chosen.copyFrom(chosen);
        this.decision = decision;
        this.committed = false;
    }

    @Override
    public PickDecision decision() {
        return decision;
    }

    /** Tells the observers; once. Afterwards the object may serve another decision of its thread. */
    @Override
    public void commit() {
        if (committed) {
            throw new IllegalStateException("a pick is committed once");
        }
        committed = true;
        try {
            for (PickObserver o : observers) {
                o.picked(cycle, chosen);
            }
        } finally {
            cycle.end();
            owner.recycle(this);
        }
    }
}
