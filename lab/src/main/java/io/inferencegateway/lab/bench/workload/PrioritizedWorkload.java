package io.inferencegateway.lab.bench.workload;

import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Collectors;

/**
 * Another workload's requests, each tagged with a priority class drawn from a seeded mix (say 20 %
 * critical, 50 % standard, 30 % sheddable). The class of request i depends only on the seed and i, not
 * on the content stream, so the prompts are exactly those of the wrapped workload and the same seed
 * gives the same classes under every policy.
 */
public final class PrioritizedWorkload implements Workload {

    /** One class of the mix and its share of requests. */
    public record Share(String priority, double weight) {
        public Share {
            if (priority == null || priority.isBlank() || !(weight > 0)) {
                throw new IllegalArgumentException("need a priority name and a positive weight");
            }
        }
    }

    private final Workload inner;
    private final List<Share> mix;
    private final double totalWeight;
    private final long seed;

    public PrioritizedWorkload(Workload inner, List<Share> mix, long seed) {
        if (mix.isEmpty()) {
            throw new IllegalArgumentException("need at least one priority class");
        }
        this.inner = inner;
        this.mix = List.copyOf(mix);
        this.totalWeight = mix.stream().mapToDouble(Share::weight).sum();
        this.seed = seed;
    }

    /** The classes in the order given, for reports. */
    public List<String> classes() {
        return mix.stream().map(Share::priority).toList();
    }

    /** The class of request {@code index}: a uniform draw from a hash of seed and index. */
    public String priorityOf(int index) {
        double u = (Seeds.mix(Seeds.mix(seed ^ 0x5052494FL) + index) >>> 11) * 0x1.0p-53;
        double pick = u * totalWeight;
        for (Share share : mix) {
            pick -= share.weight();
            if (pick < 0) {
                return share.priority();
            }
        }
        return mix.get(mix.size() - 1).priority();
    }

    @Override
    public RequestSpec next(int index, SplittableRandom content) {
        return inner.next(index, content).withPriority(priorityOf(index));
    }

    @Override
    public WorkloadShape shape() {
        return inner.shape();
    }

    @Override
    public String describe() {
        return inner.describe() + mix.stream()
                .map(s -> String.format(java.util.Locale.ROOT, "%.0f%% %s", 100 * s.weight() / totalWeight, s.priority()))
                .collect(Collectors.joining(", ", "; priorities ", ""));
    }
}
