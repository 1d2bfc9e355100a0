package io.inferencegateway.lab.bench.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Many groups of clients, each group with its own long system prompt: the case where routing a request
 * to the pod that already holds its prefix in the KV cache saves the prefill.
 */
public final class SharedPrefixWorkload implements Workload {

    private final String model;
    private final List<String> systemPrompts;
    private final int systemTokens;
    private final IntRange questionTokens;
    private final IntRange outputTokens;

    /**
     * @param fixedText stream for the system prompts, which stay the same for the whole run
     */
    public SharedPrefixWorkload(String model, int groups, int systemTokens, IntRange questionTokens,
                                IntRange outputTokens, SplittableRandom fixedText) {
        if (groups < 1) {
            throw new IllegalArgumentException("groups must be positive, got " + groups);
        }
        this.model = model;
        this.systemTokens = systemTokens;
        this.questionTokens = questionTokens;
        this.outputTokens = outputTokens;
        List<String> prompts = new ArrayList<>(groups);
        for (int g = 0; g < groups; g++) {
            // the group number opens the text, so two groups never share their first cache block
            prompts.add(SyntheticText.of("System prompt of group " + g + ":", TokenContract.chars(systemTokens),
                    fixedText));
        }
        this.systemPrompts = List.copyOf(prompts);
    }

    public int groups() {
        return systemPrompts.size();
    }

    @Override
    public RequestSpec next(int index, SplittableRandom content) {
        int group = content.nextInt(systemPrompts.size());
        String question = SyntheticText.of("Question " + index + ":", TokenContract.chars(questionTokens.sample(content)),
                content);
        return new RequestSpec(model, List.of(ChatMessage.system(systemPrompts.get(group)), ChatMessage.user(question)),
                outputTokens.sample(content), "prefix", "group-" + group);
    }

    @Override
    public WorkloadShape shape() {
        return new WorkloadShape(systemTokens + questionTokens.mean(), systemTokens, outputTokens.mean(), 0);
    }

    @Override
    public String describe() {
        return "shared-prefix: " + groups() + " groups, system " + systemTokens + " + question " + questionTokens
                + " tokens, output " + outputTokens;
    }
}
