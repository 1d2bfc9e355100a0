package io.inferencegateway.lab.bench.gateway;

import java.util.Map;

/**
 * A {@code --policies} label and what it renders as in the scheduler: the gateway's {@code policy} and any
 * {@code weights} over the defaults. Most labels are the gateway's own policy names; the others name a variant of
 * one, so that a report can set the variants side by side.
 *
 * @param weights   entries written under {@code weights}; empty writes none (the gateway's defaults)
 * @param scheduler further entries of the scheduler, such as {@code sessionAffinity}; empty for none
 */
public record BenchPolicy(String label, String policy, Map<String, Integer> weights, Map<String, Object> scheduler) {

    /**
     * The GPU-aware policy as it was before latency targets: the {@code latency} weight 0 switches the SLO-aware
     * scoring off. Only that weight is written, so the rest stay at the gateway's defaults (queue 2, kvCache 2,
     * prefix 3, loraAffinity 2, runningRequests 0) and the comparison with {@code gpu-aware} differs in one thing.
     */
    public static final String GPU_AWARE_NO_SLO = "gpu-aware-no-slo";

    /**
     * The GPU-aware policy with session affinity off ({@code sessionAffinity: {enabled: false}}): prefix affinity
     * alone keeps a conversation's turns together, as before session affinity existed.
     */
    public static final String GPU_AWARE_NO_SESSION = "gpu-aware-no-session";

    /**
     * The GPU-aware policy with the picker that goes by predicted time ({@code picker: predicted-time}) instead of the
     * default highest weighted score. Needs a gateway that knows the scheduler's {@code picker} field; an older one
     * refuses the config.
     */
    public static final String GPU_AWARE_PREDICTED_TIME = "gpu-aware-predicted-time";

    public BenchPolicy {
        weights = Map.copyOf(weights);
        scheduler = Map.copyOf(scheduler);
    }

    public BenchPolicy(String label, String policy, Map<String, Integer> weights) {
        this(label, policy, weights, Map.of());
    }

    public static BenchPolicy of(String label) {
        if (GPU_AWARE_NO_SLO.equals(label)) {
            return new BenchPolicy(label, "gpu-aware", Map.of("latency", 0));
        }
        if (GPU_AWARE_NO_SESSION.equals(label)) {
            return new BenchPolicy(label, "gpu-aware", Map.of(), Map.of("sessionAffinity", Map.of("enabled", false)));
        }
        if (GPU_AWARE_PREDICTED_TIME.equals(label)) {
            return new BenchPolicy(label, "gpu-aware", Map.of(), Map.of("picker", "predicted-time"));
        }
        return new BenchPolicy(label, label, Map.of());
    }
}
