package io.inferencegateway.scheduling;

/**
 * What the GPU-aware scheduler tells the outside world (a metrics registry, say). Camel-free on purpose:
 * the gateway counts it in {@link SchedulerMeters}. Called on the request path, so an
 * implementation must not block and should not allocate per call.
 */
@FunctionalInterface
public interface SchedulerEvents {

    SchedulerEvents NONE = (pool, active) -> {
    };

    /**
     * At most once per transition.
     *
     * @param pool   the pool's name
     * @param active true when no candidate has fresh metrics and requests go to the endpoint with the
     *               fewest requests in flight through this gateway; false when scoring resumes
     */
    void fallbackChanged(String pool, boolean active);

    /**
     * A filter of the pool's profile removed endpoints for one request, or was ignored because it would have
     * removed them all (outcome {@code failed_open}, endpoints 1). Only called with {@code endpoints > 0}.
     *
     * @param filter   the filter's plugin type ({@code saturation-filter})
     * @param outcome  the filter's reason: a constant such as {@code saturated}, {@code stale},
     *                 {@code adapter_missing}, or {@code removed} / {@code failed_open}
     *                 (scheduling/framework/Filter.java)
     */
    default void filtered(String pool, String filter, String outcome, int endpoints) {
    }
}
