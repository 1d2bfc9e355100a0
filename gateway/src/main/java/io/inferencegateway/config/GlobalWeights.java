package io.inferencegateway.config;

import java.util.List;
import java.util.Map;

import io.inferencegateway.config.WeightShorthand.WeightKey;

/**
 * Scorer weights of a global tier's pool (its endpoints are clusters and providers, docs/global.md), named as in
 * HyperPod's global gateway plus {@code cost}, {@code prefix} and {@code priority}: a shorthand for a fixed plugin
 * list ({@link #endpointPicker()}, made by {@link WeightShorthand} from {@link #SHORTHAND}'s table), as {@link Weights}
 * is for a pool of pods.
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

    /**
     * Each key's scorer and default. Load (queue 2, KV 1) and health (errors 2) first among the clusters a standard
     * request may use, the round trip and the price (1 each) as tie-breakers; a conversation's prefix (4) weighs as
     * much as queue, KV and round trip together at their widest, so it stays on its cluster unless another is clearly
     * better on all three or the filters take its own out; priority (8) makes a critical request's fastest target and a
     * sheddable one's cheapest win unless the conversation's cluster is no worse than half as fast or twice the price
     * (docs/global.md, "Choosing a target"). In front, always: {@code residency-filter}, {@code target-health-filter},
     * {@code overflow-filter}.
     */
    static final WeightShorthand SHORTHAND = new WeightShorthand("a pool of clusters and providers", " (spec.global)",
            List.of("kvHeadroom", "queueDepth", "regionProximity", "errorRate", "cost", "prefix", "priority"),
            List.of("residency-filter", "target-health-filter", "overflow-filter"), List.of(
                    new WeightKey("kvHeadroom", "kv-cache-scorer", 1, null),
                    new WeightKey("queueDepth", "queue-depth-scorer", 2, null),
                    new WeightKey("regionProximity", "region-proximity-scorer", 1, null),
                    new WeightKey("errorRate", "error-rate-scorer", 2, null),
                    new WeightKey("cost", "cost-scorer", 1, null),
                    new WeightKey("prefix", "prefix-cache-scorer", 4, null),
                    new WeightKey("priority", "priority-scorer", 8, null)));

    public static final List<String> NAMES = SHORTHAND.names();

    /** Every weight at its default ({@link #SHORTHAND}). */
    public static final GlobalWeights DEFAULT = of(SHORTHAND.defaults());

    public GlobalWeights with(String name, int value) {
        return of(SHORTHAND.with(asMap(), name, value));
    }

    /** The plugins and profile these weights stand for (see {@link WeightShorthand}). */
    public EndpointPickerConfig endpointPicker() {
        return SHORTHAND.endpointPicker(asMap());
    }

    /** Each weight by its key. */
    Map<String, Integer> asMap() {
        return Map.of("kvHeadroom", kvHeadroom, "queueDepth", queueDepth, "regionProximity", regionProximity,
                "errorRate", errorRate, "cost", cost, "prefix", prefix, "priority", priority);
    }

    /** The weights of a map that has every key. */
    static GlobalWeights of(Map<String, Integer> w) {
        return new GlobalWeights(w.get("kvHeadroom"), w.get("queueDepth"), w.get("regionProximity"), w.get("errorRate"),
                w.get("cost"), w.get("prefix"), w.get("priority"));
    }
}
