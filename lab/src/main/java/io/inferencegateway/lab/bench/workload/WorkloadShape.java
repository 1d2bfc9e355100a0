package io.inferencegateway.lab.bench.workload;

/**
 * Mean sizes of a workload's requests, in tokens, for capacity estimates.
 *
 * @param promptTokens          mean prompt length
 * @param cacheablePromptTokens mean part of the prompt that a perfect router would find in the prefix
 *                              cache (the shared system prompt)
 * @param outputTokens          mean output length
 * @param adaptersPerBatch      distinct LoRA adapters a running batch typically holds (slows each step)
 */
public record WorkloadShape(double promptTokens, double cacheablePromptTokens, double outputTokens,
                            double adaptersPerBatch) {
}
