package io.inferencegateway.scheduling.framework;

import java.util.List;

/**
 * Extension point 1 of 3: removes endpoints that should not take the request. Filters run in order;
 * the framework ignores a filter that would remove every endpoint (fail open).
 */
@FunctionalInterface
public interface Filter {

    /**
     * @return the endpoints that may take the request: {@code endpoints} itself when nothing is removed,
     *         otherwise a new list; the states are only valid during this call
     */
    List<EndpointState> filter(SchedulingCycle cycle, List<EndpointState> endpoints);
}
