package io.inferencegateway.config;

import java.util.List;

/**
 * A validated configuration with every default applied.
 *
 * @param auth       who may call ({@code spec.auth})
 * @param tenants    the tenants, their model access and limits ({@code spec.tenants})
 * @param rateLimits how the limits are counted ({@code spec.rateLimits})
 * @param cluster    this gateway as a cluster of a global tier ({@code spec.cluster})
 * @param global     this gateway as a global tier ({@code spec.global}); {@link GlobalConfig#NONE} in front of pods
 * @param modelRewrites the model names served by weighted versions ({@code spec.modelRewrites}, docs/rollouts.md)
 */
public record GatewayConfig(List<PoolConfig> pools, long maxRequestBodyBytes, ObservabilityConfig observability,
        AccessConfig auth, List<TenantConfig> tenants, RateLimitConfig rateLimits, ClusterConfig cluster,
        GlobalConfig global, List<ModelRewriteConfig> modelRewrites) {

    public static final long DEFAULT_MAX_REQUEST_BODY_BYTES = 8L * 1024 * 1024;

    public GatewayConfig {
        pools = List.copyOf(pools);
        tenants = List.copyOf(tenants);
        cluster = cluster == null ? ClusterConfig.NONE : cluster;
        global = global == null ? GlobalConfig.NONE : global;
        modelRewrites = modelRewrites == null ? List.of() : List.copyOf(modelRewrites);
    }

    /** A config without model rewrites. */
    public GatewayConfig(List<PoolConfig> pools, long maxRequestBodyBytes, ObservabilityConfig observability,
            AccessConfig auth, List<TenantConfig> tenants, RateLimitConfig rateLimits, ClusterConfig cluster,
            GlobalConfig global) {
        this(pools, maxRequestBodyBytes, observability, auth, tenants, rateLimits, cluster, global, List.of());
    }

    /** A config in front of pods, not a cluster of a global tier. */
    public GatewayConfig(List<PoolConfig> pools, long maxRequestBodyBytes, ObservabilityConfig observability,
            AccessConfig auth, List<TenantConfig> tenants, RateLimitConfig rateLimits) {
        this(pools, maxRequestBodyBytes, observability, auth, tenants, rateLimits, ClusterConfig.NONE,
                GlobalConfig.NONE);
    }

    /** A config without auth, tenants or limits. */
    public GatewayConfig(List<PoolConfig> pools, long maxRequestBodyBytes, ObservabilityConfig observability) {
        this(pools, maxRequestBodyBytes, observability, AccessConfig.OFF, List.of(), RateLimitConfig.DEFAULT);
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
