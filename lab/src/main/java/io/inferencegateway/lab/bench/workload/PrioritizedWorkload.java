package io.inferencegateway.lab.bench.workload;

import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Collectors;

/**
 * Another workload's requests, each tagged with a priority class drawn from a seeded mix (say 20 %
 * critical, 50 % standard, 30 % sheddable), and with the latency targets of that share when it has any.
 * The class of request i depends only on the seed and i, not on the content stream, so the prompts are
 * exactly those of the wrapped workload and the same seed gives the same classes under every policy.
 */
public final class PrioritizedWorkload implements Workload {

    /** One class of the mix, its share of requests and the latency targets its requests carry. */
    public record Share(String priority, double weight, SloClass slo) {
        public Share {
            if (priority == null || priority.isBlank() || !(weight > 0)) {
                throw new IllegalArgumentException("need a priority name and a positive weight");
            }
            slo = slo == null ? SloClass.NONE : slo;
        }

        /** A class with a priority only, no latency targets. */
        public Share(String priority, double weight) {
            this(priority, weight, SloClass.NONE);
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
    public Share shareOf(int index) {
        double u = (Seeds.mix(Seeds.mix(seed ^ 0x5052494FL) + index) >>> 11) * 0x1.0p-53;
        double pick = u * totalWeight;
        for (Share share : mix) {
            pick -= share.weight();
            if (pick < 0) {
                return share;
            }
        }
        return mix.get(mix.size() - 1);
    }

    @Override
    public RequestSpec next(int index, SplittableRandom content) {
        Share share = shareOf(index);
        return inner.next(index, content).withPriority(share.priority()).withSlo(share.slo());
    }

    @Override
    public WorkloadShape shape() {
        return inner.shape();
    }

    @Override
    public String describe() {
        return inner.describe() + mix.stream()
                .map(s -> String.format(java.util.Locale.ROOT, "%.0f%% %s", 100 * s.weight() / totalWeight, s.priority())
                        + (s.slo().isNone() ? "" : " (" + s.slo().name() + ": " + s.slo().describeTargets() + ")"))
                .collect(Collectors.joining(", ", "; priorities ", ""));
    }
}
