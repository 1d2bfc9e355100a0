package io.inferencegateway.scheduling.framework;

import io.inferencegateway.domain.RequestListener;
import io.inferencegateway.domain.RequestRecord;

/**
 * Extension point: learns what became of the requests its pool placed, hook by hook: the pick once the request is on
 * its way ({@link #committed}, with the request's prompt blocks still in the cycle), then the rest of the request's life
 * as the gateway's listeners hear it (response headers, first token, each chunk, its one ending). The prefix index and
 * the session table learn at {@link #committed}; the latency predictor at the first token and the end.
 */
public interface LifecyclePlugin extends RequestListener {

    /**
     * The pick was committed: the request is on its way to {@code chosen}. Called once per decision (also for the
     * fallback's and a failover's), possibly on another thread than the decision's and after other decisions; the
     * cycle holds the request, its time and its prompt blocks, and {@code chosen} is valid during the call only.
     */
    default void committed(SchedulingCycle cycle, EndpointState chosen) {
    }

    /** Nothing by default: most lifecycle plugins learn from the pick alone. */
    @Override
    default void ended(RequestRecord record) {
    }
}
