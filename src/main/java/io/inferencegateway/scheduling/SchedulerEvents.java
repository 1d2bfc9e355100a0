package io.inferencegateway.scheduling;

/**
 * What the GPU-aware scheduler tells the outside world (a metrics registry, say). Camel-free on purpose:
 * the gateway adapts it to its own metrics. Called on the request path, at most once per transition.
 */
@FunctionalInterface
public interface SchedulerEvents {

    SchedulerEvents NONE = (pool, active) -> {
    };

    /**
     * @param pool   the pool's name
     * @param active true when no candidate has fresh metrics and requests go to the endpoint with the
     *               fewest requests in flight through this gateway; false when scoring resumes
     */
    void fallbackChanged(String pool, boolean active);
}
