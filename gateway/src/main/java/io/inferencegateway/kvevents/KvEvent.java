package io.inferencegateway.kvevents;

/**
 * One change to an engine's KV cache, as vLLM publishes it ({@code vllm/distributed/kv_events.py}) and SGLang in the
 * same shape: blocks stored, blocks removed, or everything cleared. Block hashes are the engine's own (64 bits: vLLM's
 * unsigned integers as they are, longer byte strings folded to their last 8 bytes); they only name blocks between
 * a store and its removal, and the tokens a store carries say what the blocks hold.
 */
public sealed interface KvEvent {

    /** Where a block sits: accelerator memory, or an offloading tier. */
    enum Medium {
        GPU, CPU, DISK, OTHER;

        /** vLLM writes {@code "GPU"}, {@code "CPU"}, ...; none means the accelerator. */
        static Medium of(String name) {
            if (name == null) {
                return GPU;
            }
            return switch (name.toUpperCase(java.util.Locale.ROOT)) {
                case "GPU", "CUDA", "HBM" -> GPU;
                case "CPU", "DRAM" -> CPU;
                case "DISK", "SSD" -> DISK;
                default -> OTHER;
            };
        }
    }

    /**
     * Blocks the engine now holds, in order: each extends the one before it, the first extends {@code parentHash}.
     *
     * @param blockHashes the blocks' hashes
     * @param parentHash  the hash of the block the first one follows, or null when it starts a prompt
     * @param tokenIds    the tokens of all the blocks, {@code blockSize} a block
     * @param blockSize   tokens a block
     * @param loraName    the LoRA adapter the blocks were computed with, or null for the base model
     * @param medium      where they sit
     * @param group       the KV-cache group (a model with several attention kinds keeps several), 0 for the first
     */
    record BlockStored(long[] blockHashes, Long parentHash, int[] tokenIds, int blockSize, String loraName,
            Medium medium, int group) implements KvEvent {
    }

    /** Blocks the engine no longer holds in {@code medium}. */
    record BlockRemoved(long[] blockHashes, Medium medium, int group) implements KvEvent {
    }

    /** The engine dropped every block (a reset of its prefix cache). */
    record AllBlocksCleared() implements KvEvent {
    }
}
