package io.inferencegateway.scheduling.framework;

/**
 * Told which endpoint a request was routed to, for plugins that learn from the gateway's own decisions
 * (the prefix index records that the chosen pod now holds the prompt's blocks).
 */
@FunctionalInterface
public interface PickObserver {

    void picked(SchedulingCycle cycle, EndpointState chosen);
}
