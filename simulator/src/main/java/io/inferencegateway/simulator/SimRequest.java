package io.inferencegateway.simulator;

import java.util.Arrays;

/**
 * One request inside a simulated engine: its tokens (prompt, then generated), how many of them
 * are computed into KV, the KV blocks it holds and its timestamps (virtual nanoseconds).
 * Owned by one {@link EngineCore}; not thread-safe.
 */
public final class SimRequest {

    /** Lifecycle, as vLLM's RequestStatus. */
    public enum Status { WAITING, RUNNING, PREEMPTED, FINISHED, ABORTED }

    /** Receives what the engine produces for this request (on the engine's thread). */
    public interface Listener {
        Listener NONE = new Listener() {
        };

        /** A generated token; {@code index} counts from 0. */
        default void onToken(SimRequest request, int index, String text, long nowNanos) {
        }

        /** The request ended with {@code finishReason} ("length" or "abort"). */
        default void onFinish(SimRequest request, String finishReason, long nowNanos) {
        }
    }

    final long seq;
    final String adapter;
    final int promptLength;
    final int maxTokens;
    final long generationSeed;
    final long arrivalNanos;
    Listener listener;

    int[] tokens;
    int numTokens;
    int numComputed;
    int numOutput;
    Status status = Status.WAITING;
    boolean everPreempted;
    int cachedPromptTokens = -1;

    int[] blockIds = new int[4];
    int numBlocks;
    long[] blockHashes = new long[4];
    int numHashed;
    int numRegistered;

    long firstScheduledNanos = -1;
    long firstTokenNanos = -1;
    long lastTokenNanos = -1;
    long finishedNanos = -1;

    SimRequest(long seq, String adapter, int[] promptTokens, int maxTokens, long generationSeed,
               long arrivalNanos, Listener listener) {
        if (promptTokens.length == 0) {
            throw new IllegalArgumentException("empty prompt");
        }
        if (maxTokens < 1) {
            throw new IllegalArgumentException("max_tokens must be at least 1");
        }
        this.seq = seq;
        this.adapter = adapter;
        this.promptLength = promptTokens.length;
        this.maxTokens = maxTokens;
        this.generationSeed = generationSeed;
        this.arrivalNanos = arrivalNanos;
        this.listener = listener == null ? Listener.NONE : listener;
        this.tokens = Arrays.copyOf(promptTokens, promptTokens.length + Math.min(maxTokens, 64));
        this.numTokens = promptTokens.length;
    }

    void appendToken(int id) {
        if (numTokens == tokens.length) {
            tokens = Arrays.copyOf(tokens, tokens.length * 2);
        }
        tokens[numTokens++] = id;
    }

    void addBlock(int blockId) {
        if (numBlocks == blockIds.length) {
            blockIds = Arrays.copyOf(blockIds, blockIds.length * 2);
        }
        blockIds[numBlocks++] = blockId;
    }

    /** Chain hash of full block {@code i} (adapter included), computed once per block. */
    long blockHash(int i, int blockSize) {
        while (numHashed <= i) {
            long parent = numHashed == 0 ? (adapter == null ? 1 : adapter.hashCode() * 0x9E3779B97F4A7C15L) : blockHashes[numHashed - 1];
            long h = parent;
            int from = numHashed * blockSize;
            for (int t = from; t < from + blockSize; t++) {
                h = Tokenizer.mix(h * 31 + tokens[t]);
            }
            if (numHashed == blockHashes.length) {
                blockHashes = Arrays.copyOf(blockHashes, blockHashes.length * 2);
            }
            blockHashes[numHashed++] = h == 0 ? 1 : h;
        }
        return blockHashes[i];
    }

    public long seq() {
        return seq;
    }

    public String adapter() {
        return adapter;
    }

    public int promptLength() {
        return promptLength;
    }

    public int maxTokens() {
        return maxTokens;
    }

    public int outputTokens() {
        return numOutput;
    }

    public int numComputedTokens() {
        return numComputed;
    }

    public Status status() {
        return status;
    }

    public boolean wasPreempted() {
        return everPreempted;
    }

    /** Prompt tokens served from the prefix cache when the request was first scheduled (0 before). */
    public int cachedPromptTokens() {
        return Math.max(0, cachedPromptTokens);
    }

    public int heldBlocks() {
        return numBlocks;
    }

    public long arrivalNanos() {
        return arrivalNanos;
    }

    public long firstTokenNanos() {
        return firstTokenNanos;
    }

    public long finishedNanos() {
        return finishedNanos;
    }

    public void listener(Listener l) {
        this.listener = l == null ? Listener.NONE : l;
    }
}
