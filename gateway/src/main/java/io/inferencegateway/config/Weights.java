package io.inferencegateway.config;

import java.util.List;
import java.util.Map;

import io.inferencegateway.config.WeightShorthand.WeightKey;

/**
 * Scorer weights of the GPU-aware policy, named as in HyperPod's config: a shorthand for a fixed plugin list
 * ({@link #endpointPicker()}, made by {@link WeightShorthand} from {@link #SHORTHAND}'s table). The framework
 * multiplies each scorer's [0,1] score by its weight; scorers never see their weight. Scorers beyond these six are
 * configured in the plugin form only.
 */
public record Weights(int queue, int kvCache, int prefix, int loraAffinity, int runningRequests, int latency) {

    /** What a scheduler's {@code picker:} may name, each the plugin type {@code <name>-picker}; first the default. */
    public static final List<String> PICKERS = List.of("max-score", "predicted-time", "weighted-random");

    /**
     * Each key's scorer and default, in the order the profile lists the scorers: the defaults of HyperPod and the
     * Gateway API Inference Extension (queue 2, KV cache 2, prefix 3); LoRA affinity matters only for adapter requests,
     * and brings the LoRA affinity filter; latency only for requests with latency targets (docs/slo.md), and brings the
     * latency target filter. The saturation filter always goes first (docs/scheduling.md, "Weights and profiles").
     */
    static final WeightShorthand SHORTHAND = new WeightShorthand("a pool of pods", "",
            List.of("queue", "kvCache", "prefix", "loraAffinity", "runningRequests", "latency"),
            List.of("saturation-filter"), List.of(
                    new WeightKey("queue", "queue-scorer", 2, null),
                    new WeightKey("kvCache", "kv-cache-scorer", 2, null),
                    new WeightKey("loraAffinity", "lora-affinity-scorer", 2, "lora-affinity-filter"),
                    new WeightKey("runningRequests", "running-requests-scorer", 0, null),
                    new WeightKey("prefix", "prefix-cache-scorer", 3, null),
                    new WeightKey("latency", "latency-scorer", 2, "latency-target-filter")));

    public static final List<String> NAMES = SHORTHAND.names();

    /** Every weight at its default ({@link #SHORTHAND}). */
    public static final Weights DEFAULT = of(SHORTHAND.defaults());

    /** Presets selected by {@code profile}; explicit {@code weights} entries override them one by one. */
    public static Weights forProfile(String profile) {
        if (profile == null) {
            return DEFAULT;
        }
        return switch (profile) {
            // Latency: avoid queues first, then reuse cached prefixes.
            case "latency" -> new Weights(3, 2, 3, 2, 1, 3);
            // Throughput: pack batches where the KV cache and the prefix cache already help.
            case "throughput" -> new Weights(1, 3, 4, 3, 0, 2);
            default -> null;
        };
    }

    public static final List<String> PROFILES = List.of("latency", "throughput");

    public Weights with(String name, int value) {
        return of(SHORTHAND.with(asMap(), name, value));
    }

    /** The plugins and profile these weights stand for (see {@link WeightShorthand}), picking the highest total. */
    public EndpointPickerConfig endpointPicker() {
        return SHORTHAND.endpointPicker(asMap());
    }

    /** As {@link #endpointPicker()}, ending with the picker {@code picker} (one of {@link #PICKERS}). */
    public EndpointPickerConfig endpointPicker(String picker) {
        if (!PICKERS.contains(picker)) {
            throw new IllegalArgumentException("unknown picker " + picker);
        }
        return SHORTHAND.endpointPicker(asMap(), picker + "-picker");
    }

    /** Each weight by its key. */
    Map<String, Integer> asMap() {
        return Map.of("queue", queue, "kvCache", kvCache, "prefix", prefix, "loraAffinity", loraAffinity,
                "runningRequests", runningRequests, "latency", latency);
    }

    /** The weights of a map that has every key. */
    static Weights of(Map<String, Integer> w) {
        return new Weights(w.get("queue"), w.get("kvCache"), w.get("prefix"), w.get("loraAffinity"),
                w.get("runningRequests"), w.get("latency"));
    }
}
