package io.inferencegateway.config;

import java.util.ArrayList;
import java.util.List;

/**
 * Scorer weights of a global tier's pool (its endpoints are clusters and providers, docs/global.md), named as in
 * HyperPod's global gateway plus {@code cost}, {@code prefix} and {@code priority}: a shorthand for a fixed plugin
 * list ({@link #endpointPicker()}), as {@link Weights} is for a pool of pods.
 *
 * @param kvHeadroom      a cluster's free KV cache ({@code kv-cache-scorer}: 1 − KV use, which is the headroom)
 * @param queueDepth      a cluster's queue per ready pod ({@code queue-depth-scorer})
 * @param regionProximity the measured round trip ({@code region-proximity-scorer})
 * @param errorRate       the share of recent requests that failed ({@code error-rate-scorer})
 * @param cost            what this request costs there ({@code cost-scorer})
 * @param prefix          where the conversation's prefix already is ({@code prefix-cache-scorer})
 * @param priority        the fastest target for critical requests, the cheapest for sheddable ones
 *                        ({@code priority-scorer}); standard requests are left to the other weights
 */
public record GlobalWeights(int kvHeadroom, int queueDepth, int regionProximity, int errorRate, int cost, int prefix,
        int priority) {

    public static final List<String> NAMES = List.of("kvHeadroom", "queueDepth", "regionProximity", "errorRate", "cost",
            "prefix", "priority");

    /**
     * Load (queue 2, KV 1) and health (errors 2) first among the clusters a standard request may use, the round trip
     * and the price (1 each) as tie-breakers; a conversation's prefix (4) weighs as much as queue, KV and round trip
     * together at their widest, so it stays on its cluster unless another is clearly better on all three or the
     * filters take its own out; priority (8) makes a critical
     * request's fastest target and a sheddable one's cheapest win unless the conversation's cluster is no worse than
     * half as fast or twice the price (docs/global.md, "Choosing a target").
     */
    public static final GlobalWeights DEFAULT = new GlobalWeights(1, 2, 1, 2, 1, 4, 8);

    public GlobalWeights with(String name, int value) {
        return switch (name) {
            case "kvHeadroom" -> new GlobalWeights(value, queueDepth, regionProximity, errorRate, cost, prefix, priority);
            case "queueDepth" -> new GlobalWeights(kvHeadroom, value, regionProximity, errorRate, cost, prefix, priority);
            case "regionProximity" -> new GlobalWeights(kvHeadroom, queueDepth, value, errorRate, cost, prefix, priority);
            case "errorRate" -> new GlobalWeights(kvHeadroom, queueDepth, regionProximity, value, cost, prefix, priority);
            case "cost" -> new GlobalWeights(kvHeadroom, queueDepth, regionProximity, errorRate, value, prefix, priority);
            case "prefix" -> new GlobalWeights(kvHeadroom, queueDepth, regionProximity, errorRate, cost, value, priority);
            case "priority" -> new GlobalWeights(kvHeadroom, queueDepth, regionProximity, errorRate, cost, prefix, value);
            default -> throw new IllegalArgumentException("unknown weight " + name);
        };
    }

    /**
     * The plugins and profile these weights stand for: {@code residency-filter}, {@code target-health-filter},
     * {@code overflow-filter}; each scorer whose weight is above 0, with that weight; {@code max-score-picker}. Every
     * plugin with its default parameters.
     */
    public EndpointPickerConfig endpointPicker() {
        List<PluginConfig> plugins = new ArrayList<>();
        List<ProfileConfig.ProfileEntry> entries = new ArrayList<>();
        Weights.add(plugins, entries, "residency-filter", 0);
        Weights.add(plugins, entries, "target-health-filter", 0);
        Weights.add(plugins, entries, "overflow-filter", 0);
        Weights.add(plugins, entries, "kv-cache-scorer", kvHeadroom);
        Weights.add(plugins, entries, "queue-depth-scorer", queueDepth);
        Weights.add(plugins, entries, "region-proximity-scorer", regionProximity);
        Weights.add(plugins, entries, "error-rate-scorer", errorRate);
        Weights.add(plugins, entries, "cost-scorer", cost);
        Weights.add(plugins, entries, "prefix-cache-scorer", prefix);
        Weights.add(plugins, entries, "priority-scorer", priority);
        Weights.add(plugins, entries, EndpointPickerConfig.DEFAULT_PICKER, 0);
        return new EndpointPickerConfig(plugins, new ProfileConfig("default", entries));
    }
}
