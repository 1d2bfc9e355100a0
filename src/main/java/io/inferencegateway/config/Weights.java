package io.inferencegateway.config;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Scorer weights of the GPU-aware policy, named as in HyperPod's config. The framework multiplies each
 * scorer's [0,1] score by its weight; scorers never see their weight.
 */
public record Weights(int queue, int kvCache, int prefix, int loraAffinity, int runningRequests) {

    public static final List<String> NAMES = List.of("queue", "kvCache", "prefix", "loraAffinity", "runningRequests");

    /** The anchors' defaults: queue 2, KV cache 2, prefix 3; LoRA affinity matters only for adapter requests. */
    public static final Weights DEFAULT = new Weights(2, 2, 3, 2, 0);

    /** Presets selected by {@code profile}; explicit {@code weights} entries override them one by one. */
    public static Weights forProfile(String profile) {
        if (profile == null) {
            return DEFAULT;
        }
        return switch (profile) {
            // Latency: avoid queues first, then reuse cached prefixes.
            case "latency" -> new Weights(3, 2, 3, 2, 1);
            // Throughput: pack batches where the KV cache and the prefix cache already help.
            case "throughput" -> new Weights(1, 3, 4, 3, 0);
            default -> null;
        };
    }

    public static final List<String> PROFILES = List.of("latency", "throughput");

    public Weights with(String name, int value) {
        return switch (name) {
            case "queue" -> new Weights(value, kvCache, prefix, loraAffinity, runningRequests);
            case "kvCache" -> new Weights(queue, value, prefix, loraAffinity, runningRequests);
            case "prefix" -> new Weights(queue, kvCache, value, loraAffinity, runningRequests);
            case "loraAffinity" -> new Weights(queue, kvCache, prefix, value, runningRequests);
            case "runningRequests" -> new Weights(queue, kvCache, prefix, loraAffinity, value);
            default -> throw new IllegalArgumentException("unknown weight " + name);
        };
    }

    public Map<String, Integer> asMap() {
        Map<String, Integer> m = new LinkedHashMap<>();
        m.put("queue", queue);
        m.put("kvCache", kvCache);
        m.put("prefix", prefix);
        m.put("loraAffinity", loraAffinity);
        m.put("runningRequests", runningRequests);
        return m;
    }
}
