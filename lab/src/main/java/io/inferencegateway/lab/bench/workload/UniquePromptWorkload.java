package io.inferencegateway.lab.bench.workload;

import java.util.List;
import java.util.SplittableRandom;

/** Chat requests with no shared prefix and no adapter, ShareGPT-like sizes: nothing for a cache to reuse. */
public final class UniquePromptWorkload implements Workload {

    private final String model;
    private final IntRange promptTokens;
    private final IntRange outputTokens;

    public UniquePromptWorkload(String model, IntRange promptTokens, IntRange outputTokens) {
        this.model = model;
        this.promptTokens = promptTokens;
        this.outputTokens = outputTokens;
    }

    @Override
    public RequestSpec next(int index, SplittableRandom content) {
        String prompt = SyntheticText.of("Request " + index + ":", TokenContract.chars(promptTokens.sample(content)),
                content);
        return new RequestSpec(model, List.of(ChatMessage.user(prompt)), outputTokens.sample(content), "unique", "");
    }

    @Override
    public WorkloadShape shape() {
        return new WorkloadShape(promptTokens.mean(), 0, outputTokens.mean(), 0);
    }

    @Override
    public String describe() {
        return "unique: prompt " + promptTokens + " tokens, output " + outputTokens;
    }
}
