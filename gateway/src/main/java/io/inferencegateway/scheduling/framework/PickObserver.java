package io.inferencegateway.scheduling.framework;

/**
 * Told which endpoint a request was routed to, for plugins that learn from the gateway's own decisions
 * (the prefix index records that the chosen pod now holds the prompt's blocks). On the request path it is told once
 * the request is on its way ({@link DeferredPick}), possibly on another thread than the decision's and after other
 * decisions: the cycle then holds the request, its time and its prompt blocks, but no candidates, and
 * {@code chosen} is a copy.
 */
@FunctionalInterface
public interface PickObserver {

    void picked(SchedulingCycle cycle, EndpointState chosen);
}
