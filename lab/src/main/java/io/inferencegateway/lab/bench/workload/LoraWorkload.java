package io.inferencegateway.lab.bench.workload;

import java.util.List;
import java.util.SplittableRandom;

/**
 * Requests for many LoRA adapters of one base model with skewed (Zipf) popularity: the case where
 * sending a request to a pod that already has its adapter loaded avoids a load and a slower batch.
 */
public final class LoraWorkload implements Workload {

    private final List<String> adapters;
    private final ZipfSampler popularity;
    private final IntRange promptTokens;
    private final IntRange outputTokens;
    private final double adaptersPerBatch;

    /**
     * @param zipfExponent 0 is uniform popularity; 1 gives the first of 16 adapters about 30% of requests
     * @param maxLoras     adapters a pod's batch can hold at once (for the capacity estimate)
     */
    public LoraWorkload(List<String> adapters, double zipfExponent, IntRange promptTokens, IntRange outputTokens,
                        int maxLoras) {
        if (adapters.isEmpty()) {
            throw new IllegalArgumentException("need at least one adapter");
        }
        this.adapters = List.copyOf(adapters);
        this.popularity = new ZipfSampler(adapters.size(), zipfExponent);
        this.promptTokens = promptTokens;
        this.outputTokens = outputTokens;
        this.adaptersPerBatch = Math.min(maxLoras, adapters.size());
    }

    @Override
    public RequestSpec next(int index, SplittableRandom content) {
        String adapter = adapters.get(popularity.sample(content));
        String prompt = SyntheticText.of("Request " + index + " for " + adapter + ":",
                TokenContract.chars(promptTokens.sample(content)), content);
        return new RequestSpec(adapter, List.of(ChatMessage.user(prompt)), outputTokens.sample(content), "lora",
                adapter);
    }

    @Override
    public WorkloadShape shape() {
        return new WorkloadShape(promptTokens.mean(), 0, outputTokens.mean(), adaptersPerBatch);
    }

    @Override
    public String describe() {
        return "lora: " + adapters.size() + " adapters, zipf " + popularity.exponent() + ", prompt " + promptTokens
                + " tokens, output " + outputTokens;
    }
}
