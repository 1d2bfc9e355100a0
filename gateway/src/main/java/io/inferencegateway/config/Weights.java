package io.inferencegateway.config;

import java.util.ArrayList;
import java.util.List;

/**
 * Scorer weights of the GPU-aware policy, named as in HyperPod's config: a shorthand for a fixed plugin list
 * ({@link #endpointPicker()}). The framework multiplies each scorer's [0,1] score by its weight; scorers never
 * see their weight. Scorers beyond these six are configured in the plugin form only.
 */
public record Weights(int queue, int kvCache, int prefix, int loraAffinity, int runningRequests, int latency) {

    public static final List<String> NAMES = List.of("queue", "kvCache", "prefix", "loraAffinity", "runningRequests",
            "latency");

    /**
     * The defaults of HyperPod and the Gateway API Inference Extension: queue 2, KV cache 2, prefix 3; LoRA affinity
     * matters only for adapter requests, latency only for requests with latency targets (docs/slo.md).
     */
    public static final Weights DEFAULT = new Weights(2, 2, 3, 2, 0, 2);

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
        return switch (name) {
            case "queue" -> new Weights(value, kvCache, prefix, loraAffinity, runningRequests, latency);
            case "kvCache" -> new Weights(queue, value, prefix, loraAffinity, runningRequests, latency);
            case "prefix" -> new Weights(queue, kvCache, value, loraAffinity, runningRequests, latency);
            case "loraAffinity" -> new Weights(queue, kvCache, prefix, value, runningRequests, latency);
            case "runningRequests" -> new Weights(queue, kvCache, prefix, loraAffinity, value, latency);
            case "latency" -> new Weights(queue, kvCache, prefix, loraAffinity, runningRequests, value);
            default -> throw new IllegalArgumentException("unknown weight " + name);
        };
    }

    /**
     * The plugins and profile these weights stand for: the saturation filter; the LoRA affinity filter when
     * {@code loraAffinity} is above 0; the latency target filter when {@code latency} is; each scorer whose weight is above 0, with that weight; the max-score
     * picker. Every plugin with its default parameters (docs/scheduling.md, "Weights and profiles").
     */
    public EndpointPickerConfig endpointPicker() {
        List<PluginConfig> plugins = new ArrayList<>();
        List<ProfileConfig.ProfileEntry> entries = new ArrayList<>();
        add(plugins, entries, "saturation-filter", 0);
        if (loraAffinity > 0) {
            add(plugins, entries, "lora-affinity-filter", 0);
        }
        if (latency > 0) {
            add(plugins, entries, "latency-target-filter", 0);
        }
        add(plugins, entries, "queue-scorer", queue);
        add(plugins, entries, "kv-cache-scorer", kvCache);
        add(plugins, entries, "lora-affinity-scorer", loraAffinity);
        add(plugins, entries, "running-requests-scorer", runningRequests);
        add(plugins, entries, "prefix-cache-scorer", prefix);
        add(plugins, entries, "latency-scorer", latency);
        add(plugins, entries, EndpointPickerConfig.DEFAULT_PICKER, 0);
        return new EndpointPickerConfig(plugins, new ProfileConfig("default", entries));
    }

    /** Puts plugin {@code type} in the profile with {@code weight}; a scorer of weight 0 stays out. */
    static void add(List<PluginConfig> plugins, List<ProfileConfig.ProfileEntry> entries, String type, int weight) {
        if (type.endsWith("-scorer") && weight == 0) {
            return; // weight 0: not in the profile (and a prefix index is not built)
        }
        plugins.add(PluginConfig.of(type));
        entries.add(new ProfileConfig.ProfileEntry(type, weight));
    }
}
