package io.inferencegateway.config;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.inferencegateway.core.Endpoint;

/**
 * One validated scheduler entry: a model pool.
 *
 * @param endpoints     static endpoints (the local default when there is no Kubernetes)
 * @param modelSelector pod labels that select this pool's pods on Kubernetes; empty when static
 * @param routeTimeout  longest wait for the model server's response headers, and for any gap between
 *                      body chunks after that
 */
public record PoolConfig(
        String name,
        String modelName,
        List<String> loraAdapters,
        List<Endpoint> endpoints,
        Map<String, String> modelSelector,
        String namespace,
        int targetPort,
        EngineType engine,
        Policy policy,
        Weights weights,
        Duration routeTimeout,
        Duration metricsInterval) {

    public static final int DEFAULT_TARGET_PORT = 8000;
    public static final Duration DEFAULT_ROUTE_TIMEOUT = Duration.ofSeconds(300);
    public static final Duration DEFAULT_METRICS_INTERVAL = Duration.ofMillis(50);

    public PoolConfig {
        loraAdapters = List.copyOf(loraAdapters);
        endpoints = List.copyOf(endpoints);
        modelSelector = Map.copyOf(modelSelector);
    }
}
