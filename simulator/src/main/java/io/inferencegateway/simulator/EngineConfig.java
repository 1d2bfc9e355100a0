package io.inferencegateway.simulator;

import java.util.List;

/**
 * Static configuration of one simulated vLLM engine. Defaults are vLLM V1's for
 * Llama-3.1-8B-Instruct on one H100 (docs/configuration.md, "Simulated model servers").
 *
 * @param modelName            served model name (the {@code model_name} label)
 * @param adapters             LoRA adapters registered at start
 * @param maxLoras             adapters that fit in GPU slots at once (vLLM {@code --max-loras})
 * @param numGpuBlocks         KV-cache blocks
 * @param blockSize            tokens per KV block
 * @param maxNumBatchedTokens  token budget of one step (chunked prefill)
 * @param maxNumSeqs           running requests at most
 * @param maxModelLen          context length limit (prompt plus output)
 * @param speed                GPU speed factor, 1 = H100; step times are divided by it
 * @param cost                 the step-time model
 * @param seed                 seed of generated text
 */
public record EngineConfig(String modelName, List<String> adapters, int maxLoras, int numGpuBlocks, int blockSize,
                           int maxNumBatchedTokens, int maxNumSeqs, int maxModelLen, double speed,
                           StepCostModel cost, long seed) {

    public static final String DEFAULT_MODEL = "meta-llama/Llama-3.1-8B-Instruct";
    public static final int DEFAULT_KV_BLOCKS = 29_205;
    public static final int DEFAULT_MAX_LORAS = 4;

    public EngineConfig {
        adapters = List.copyOf(adapters);
        if (maxLoras < 1 || numGpuBlocks < 1 || blockSize < 1 || maxNumBatchedTokens < 1 || maxNumSeqs < 1
                || maxModelLen < 2) {
            throw new IllegalArgumentException("engine limits must be positive");
        }
        if (!(speed > 0)) {
            throw new IllegalArgumentException("speed must be positive");
        }
    }

    /** vLLM defaults for Llama-3.1-8B on one H100, no adapters. */
    public static EngineConfig defaults() {
        return new EngineConfig(DEFAULT_MODEL, List.of(), DEFAULT_MAX_LORAS, DEFAULT_KV_BLOCKS, 16, 8192, 256,
                131_072, 1.0, StepCostModel.LLAMA_8B_H100, 42);
    }

    public EngineConfig withModel(String name) {
        return new EngineConfig(name, adapters, maxLoras, numGpuBlocks, blockSize, maxNumBatchedTokens, maxNumSeqs,
                maxModelLen, speed, cost, seed);
    }

    public EngineConfig withAdapters(List<String> names, int maxLorasInGpu) {
        return new EngineConfig(modelName, names, maxLorasInGpu, numGpuBlocks, blockSize, maxNumBatchedTokens,
                maxNumSeqs, maxModelLen, speed, cost, seed);
    }

    public EngineConfig withKvBlocks(int blocks) {
        return new EngineConfig(modelName, adapters, maxLoras, blocks, blockSize, maxNumBatchedTokens, maxNumSeqs,
                maxModelLen, speed, cost, seed);
    }

    public EngineConfig withMaxNumSeqs(int seqs) {
        return new EngineConfig(modelName, adapters, maxLoras, numGpuBlocks, blockSize, maxNumBatchedTokens, seqs,
                maxModelLen, speed, cost, seed);
    }

    public EngineConfig withSpeed(double factor) {
        return new EngineConfig(modelName, adapters, maxLoras, numGpuBlocks, blockSize, maxNumBatchedTokens,
                maxNumSeqs, maxModelLen, factor, cost, seed);
    }

    public EngineConfig withSeed(long s) {
        return new EngineConfig(modelName, adapters, maxLoras, numGpuBlocks, blockSize, maxNumBatchedTokens,
                maxNumSeqs, maxModelLen, speed, cost, s);
    }
}
