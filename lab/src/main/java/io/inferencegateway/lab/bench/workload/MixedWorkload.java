package io.inferencegateway.lab.bench.workload;

import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Collectors;

/** A weighted mix of other workloads: each request comes from one part, chosen by weight. */
public final class MixedWorkload implements Workload {

    /** One part of the mix. */
    public record Part(double weight, Workload workload) {
        public Part {
            if (!(weight > 0)) {
                throw new IllegalArgumentException("weight must be positive, got " + weight);
            }
        }
    }

    private final List<Part> parts;
    private final double totalWeight;

    public MixedWorkload(List<Part> parts) {
        if (parts.isEmpty()) {
            throw new IllegalArgumentException("need at least one part");
        }
        this.parts = List.copyOf(parts);
        this.totalWeight = parts.stream().mapToDouble(Part::weight).sum();
    }

    @Override
    public RequestSpec next(int index, SplittableRandom content) {
        double pick = content.nextDouble() * totalWeight;
        for (Part part : parts) {
            pick -= part.weight();
            if (pick < 0) {
                return part.workload().next(index, content);
            }
        }
        return parts.get(parts.size() - 1).workload().next(index, content);
    }

    @Override
    public WorkloadShape shape() {
        double prompt = 0;
        double cacheable = 0;
        double output = 0;
        double adapters = 0;
        for (Part part : parts) {
            double share = part.weight() / totalWeight;
            WorkloadShape s = part.workload().shape();
            prompt += share * s.promptTokens();
            cacheable += share * s.cacheablePromptTokens();
            output += share * s.outputTokens();
            adapters = Math.max(adapters, s.adaptersPerBatch());
        }
        return new WorkloadShape(prompt, cacheable, output, adapters);
    }

    @Override
    public String describe() {
        return parts.stream()
                .map(p -> String.format("%.0f%% %s", 100 * p.weight() / totalWeight, p.workload().describe()))
                .collect(Collectors.joining("; ", "mixed: ", ""));
    }
}
