package io.inferencegateway.config;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.inferencegateway.config.InferenceGatewayConfig.Scheduler;

/**
 * Validates a document's {@code spec} into a {@link GatewayConfig}: each section by its own validator, in the order one
 * needs another ({@code global} before the schedulers that use its targets, the schedulers before the tenants and
 * model rewrites that name what they serve), and what holds across the schedulers: no two pools share a name, and no
 * two serve the same model or adapter. Its own field: {@code bbr.maxRequestBodyBytes}.
 */
final class SpecValidation {

    private SpecValidation() {
    }

    static GatewayConfig spec(InferenceGatewayConfig.Spec spec) throws InvalidConfigException {
        if (spec == null) {
            throw new InvalidConfigException("spec is required");
        }
        List<Scheduler> schedulers = spec.schedulers();
        if (schedulers == null || schedulers.isEmpty()) {
            throw new InvalidConfigException("spec.schedulers must list at least one scheduler");
        }
        long maxBody = maxRequestBodyBytes(spec.bbr());
        GlobalConfig global = GlobalValidation.global(spec.global());
        Map<String, String> servedNames = new HashMap<>();
        Map<String, String> poolNames = new HashMap<>();
        List<PoolConfig> pools = new ArrayList<>();
        for (int i = 0; i < schedulers.size(); i++) {
            String at = "spec.schedulers[" + i + "]";
            PoolConfig pool = SchedulerValidation.scheduler(at, schedulers.get(i), global);
            claim(poolNames, pool.name(), at + ".name");
            claim(servedNames, pool.modelName(), at + ".modelName");
            for (int a = 0; a < pool.loraAdapters().size(); a++) {
                claim(servedNames, pool.loraAdapters().get(a), at + ".loraAdapters[" + a + "]");
            }
            pools.add(pool);
        }
        ShadowValidation.candidates(pools);
        RateLimitConfig rateLimits = AccessValidation.rateLimits(spec.rateLimits());
        return new GatewayConfig(pools, maxBody, ObservabilityValidation.observability(spec.observability()),
                AccessValidation.auth(spec.auth()),
                AccessValidation.tenants(spec.tenants(), servedNames, global),
                rateLimits, ClusterValidation.cluster(spec.cluster()), global,
                ModelRewriteValidation.modelRewrites(spec.modelRewrites(), servedNames.keySet(), rateLimits));
    }

    private static long maxRequestBodyBytes(InferenceGatewayConfig.Bbr bbr) throws InvalidConfigException {
        if (bbr == null || bbr.maxRequestBodyBytes() == null) {
            return GatewayConfig.DEFAULT_MAX_REQUEST_BODY_BYTES;
        }
        long maxBody = bbr.maxRequestBodyBytes();
        if (maxBody < 1 || maxBody > Integer.MAX_VALUE) {
            throw new InvalidConfigException("spec.bbr.maxRequestBodyBytes must be between 1 and " + Integer.MAX_VALUE);
        }
        return maxBody;
    }

    /** Takes {@code name} for {@code path}; an error naming the path that took it first. */
    private static void claim(Map<String, String> taken, String name, String path) throws InvalidConfigException {
        String previous = taken.putIfAbsent(name, path);
        if (previous != null) {
            throw new InvalidConfigException(path + " '" + name + "' duplicates " + previous);
        }
    }
}
