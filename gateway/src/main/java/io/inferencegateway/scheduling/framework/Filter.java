package io.inferencegateway.scheduling.framework;

import java.util.List;

import io.inferencegateway.domain.GatewayError;

/**
 * Extension point: removes endpoints that should not take the request. Filters run in order; the framework ignores a
 * filter that would remove every endpoint (fail open), unless the filter states a rule the request must not break
 * ({@link #refusal}). A filter says why it removed endpoints with {@link SchedulingCycle#removed}; the gateway counts
 * that per outcome ({@code inference_gateway_scheduler_filtered_total}, docs/observability.md).
 */
@FunctionalInterface
public interface Filter {

    /** The outcome of removals a filter did not explain. */
    String REMOVED = "removed";
    /** The outcome counted once when the framework ignored a filter that would have removed every endpoint. */
    String FAILED_OPEN = "failed_open";

    /**
     * @return the endpoints that may take the request: {@code endpoints} itself when nothing is removed,
     *         otherwise another list, best {@link SchedulingCycle#keptList} (no allocation); the states are only
     *         valid during this call
     */
    List<EndpointState> filter(SchedulingCycle cycle, List<EndpointState> endpoints);

    /**
     * The error the client gets when this filter kept no candidate, for a filter whose removals stand even then (a
     * tenant's data residency: the request may go nowhere else); null, the default, for a preference the framework
     * drops when it would leave no candidate (fail open).
     */
    default GatewayError refusal(SchedulingCycle cycle) {
        return null;
    }
}
