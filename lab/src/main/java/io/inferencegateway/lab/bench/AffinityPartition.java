package io.inferencegateway.lab.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

import io.inferencegateway.lab.bench.workload.RequestSpec;
import io.inferencegateway.lab.bench.workload.Workload;

/**
 * How a router that keeps every key on one pod would split a workload over {@code n} pods: the keys
 * (shared-prefix groups, LoRA adapters) go to shares so that the shares carry traffic as evenly as
 * possible, with at most {@code ceil(keys / n)} keys each (so a share never holds more adapters than its
 * fair part of the fleet's slots); unkeyed requests then fill the lighter shares up (water-filling).
 * With equally popular keys every share carries {@code 1/n}; with skewed popularity (Zipf adapters) the
 * share holding the hottest key may carry more, and that share limits the fleet.
 *
 * @param keys         per share, the keys it serves
 * @param traffic      per share, the fraction of all requests it carries
 * @param unkeyedShare per share, the fraction of the unkeyed requests it takes
 */
public record AffinityPartition(List<Set<String>> keys, double[] traffic, double[] unkeyedShare) {

    /** Requests drawn to estimate key popularity. */
    static final int SAMPLE = 8_000;

    public static AffinityPartition of(Workload workload, int shares, long seed) {
        if (shares < 1) {
            throw new IllegalArgumentException("shares must be positive, got " + shares);
        }
        Map<String, Integer> counts = new LinkedHashMap<>();
        int unkeyed = 0;
        SplittableRandom content = io.inferencegateway.lab.bench.workload.Seeds.CONTENT.stream(seed);
        for (int i = 0; i < SAMPLE; i++) {
            RequestSpec spec = workload.next(i, content);
            if (spec.key().isEmpty()) {
                unkeyed++;
            } else {
                counts.merge(spec.key(), 1, Integer::sum);
            }
        }
        return of(counts, unkeyed, shares);
    }

    /** The partition for observed counts: keys by descending count, each to the lightest share with room. */
    static AffinityPartition of(Map<String, Integer> counts, int unkeyed, int shares) {
        double total = unkeyed + counts.values().stream().mapToInt(Integer::intValue).sum();
        int cap = Math.max(1, (counts.size() + shares - 1) / shares);
        List<Set<String>> keys = new ArrayList<>();
        for (int s = 0; s < shares; s++) {
            keys.add(new HashSet<>());
        }
        double[] keyed = new double[shares];
        List<Map.Entry<String, Integer>> byCount = new ArrayList<>(counts.entrySet());
        byCount.sort(Map.Entry.<String, Integer>comparingByValue(Comparator.reverseOrder()));
        for (Map.Entry<String, Integer> e : byCount) {
            int best = -1;
            for (int s = 0; s < shares; s++) {
                if (keys.get(s).size() < cap && (best < 0 || keyed[s] < keyed[best])) {
                    best = s;
                }
            }
            keys.get(best).add(e.getKey());
            keyed[best] += e.getValue() / total;
        }
        double[] fill = waterFill(keyed, unkeyed / total);
        double[] traffic = new double[shares];
        double[] unkeyedShare = new double[shares];
        for (int s = 0; s < shares; s++) {
            traffic[s] = keyed[s] + fill[s];
            unkeyedShare[s] = unkeyed == 0 ? 0 : fill[s] / (unkeyed / total);
        }
        return new AffinityPartition(keys, traffic, unkeyedShare);
    }

    /** Adds {@code amount} to the lowest levels first, raising them together, as water fills a basin. */
    static double[] waterFill(double[] levels, double amount) {
        int n = levels.length;
        double[] sorted = levels.clone();
        Arrays.sort(sorted);
        double level = sorted[0];
        double left = amount;
        for (int k = 1; k <= n; k++) {
            double next = k < n ? sorted[k] : Double.POSITIVE_INFINITY;
            double room = (next - level) * k;
            if (room >= left) {
                level += left / k;
                break;
            }
            left -= room;
            level = next;
        }
        double[] fill = new double[n];
        for (int s = 0; s < n; s++) {
            fill[s] = Math.max(0, level - levels[s]);
        }
        return fill;
    }

    public int shares() {
        return keys.size();
    }
}
