package io.inferencegateway.config;

import java.util.List;

/**
 * A validated configuration with every default applied.
 *
 * @param auth       who may call ({@code spec.auth})
 * @param tenants    the tenants, their model access and limits ({@code spec.tenants})
 * @param rateLimits how the limits are counted ({@code spec.rateLimits})
 * @param cluster    this gateway as a cluster of a global tier ({@code spec.cluster})
 */
public record GatewayConfig(List<PoolConfig> pools, long maxRequestBodyBytes, ObservabilityConfig observability,
        AccessConfig auth, List<TenantConfig> tenants, RateLimitConfig rateLimits, ClusterConfig cluster) {

    public static final long DEFAULT_MAX_REQUEST_BODY_BYTES = 8L * 1024 * 1024;

    public GatewayConfig {
        pools = List.copyOf(pools);
        tenants = List.copyOf(tenants);
        cluster = cluster == null ? ClusterConfig.NONE : cluster;
    }

    /** A config without auth, tenants or limits. */
    public GatewayConfig(List<PoolConfig> pools, long maxRequestBodyBytes, ObservabilityConfig observability) {
        this(pools, maxRequestBodyBytes, observability, AccessConfig.OFF, List.of(), RateLimitConfig.DEFAULT,
                ClusterConfig.NONE);
    }

    /** A config with the default observability (request metrics on, access log and tracing off). */
    public GatewayConfig(List<PoolConfig> pools, long maxRequestBodyBytes) {
        this(pools, maxRequestBodyBytes, ObservabilityConfig.DEFAULT);
    }

    /** The tenant named {@code name}, or null. */
    public TenantConfig tenant(String name) {
        for (TenantConfig t : tenants) {
            if (t.name().equals(name)) {
                return t;
            }
        }
        return null;
    }
}
