package io.inferencegateway.config;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.inferencegateway.domain.LatencyTargets;

/**
 * Validates latency targets: a scheduler's {@code slo} (the pool's, and each of its models' and adapters'), and the
 * {@link #targets} a tenant's {@code slo} sets the same way.
 */
final class SloValidation {

    private SloValidation() {
    }

    /**
     * @param at        the section's path, e.g. {@code spec.schedulers[0].slo}
     * @param modelName the pool's model, which {@code models} may name, as it may its {@code adapters}
     */
    static SloConfig slo(String at, InferenceGatewayConfig.PoolSlo s, String modelName, List<String> adapters)
            throws InvalidConfigException {
        if (s == null) {
            return SloConfig.NONE;
        }
        Map<String, LatencyTargets> models = new LinkedHashMap<>();
        if (s.models() != null) {
            for (Map.Entry<String, InferenceGatewayConfig.Slo> e : s.models().entrySet()) {
                ConfigChecks.servedByPool(at + ".models", e.getKey(), modelName, adapters);
                InferenceGatewayConfig.Slo m = e.getValue();
                String mat = at + ".models." + e.getKey();
                if (m == null) {
                    throw new InvalidConfigException(mat + " must not be empty");
                }
                models.put(e.getKey(), targets(mat, m.ttft(), m.tpot()));
            }
        }
        return new SloConfig(targets(at, s.ttft(), s.tpot()), models);
    }

    /** Latency targets from two durations, each optional, at least a millisecond, at most an hour. */
    static LatencyTargets targets(String at, String ttft, String tpot) throws InvalidConfigException {
        return new LatencyTargets(targetMillis(at + ".ttft", ttft), targetMillis(at + ".tpot", tpot));
    }

    private static long targetMillis(String path, String text) throws InvalidConfigException {
        Duration d = ConfigChecks.duration(text, path, Duration.ZERO);
        if (text != null && (d.toMillis() < 1 || d.toMillis() > LatencyTargets.MAX_MILLIS)) {
            throw new InvalidConfigException(path + " must be 1ms..1h, got '" + text + "'");
        }
        return d.toMillis();
    }
}
