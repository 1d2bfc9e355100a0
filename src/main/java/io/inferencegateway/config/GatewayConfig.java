package io.inferencegateway.config;

import java.util.List;

/** A validated configuration with every default applied. */
public record GatewayConfig(List<PoolConfig> pools, long maxRequestBodyBytes, ObservabilityConfig observability) {

    public static final long DEFAULT_MAX_REQUEST_BODY_BYTES = 8L * 1024 * 1024;

    public GatewayConfig {
        pools = List.copyOf(pools);
    }

    /** A config with the default observability (request metrics on, access log and tracing off). */
    public GatewayConfig(List<PoolConfig> pools, long maxRequestBodyBytes) {
        this(pools, maxRequestBodyBytes, ObservabilityConfig.DEFAULT);
    }
}
