package io.inferencegateway.scheduling.plugins;

import java.util.AbstractList;
import java.util.List;

import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.domain.PickReason;
import io.inferencegateway.metrics.EndpointMetrics;
import io.inferencegateway.scheduling.framework.EndpointState;
import io.inferencegateway.scheduling.framework.MembershipListener;
import io.inferencegateway.scheduling.framework.PickObserver;
import io.inferencegateway.scheduling.framework.PluginType;
import io.inferencegateway.scheduling.framework.PrefixIndexed;
import io.inferencegateway.scheduling.framework.Scorer;
import io.inferencegateway.scheduling.framework.SchedulingCycle;
import io.inferencegateway.scheduling.prefix.PrefixIndex;
import io.inferencegateway.scheduling.prefix.PromptBlocks;

/**
 * {@value #TYPE}: prefers the endpoint that probably still holds the longest part of this prompt in its
 * KV cache, so the engine skips prefill for those tokens (about 31 µs a token on an H100 for an 8B model:
 * a shared 2,000-token system prompt is worth some 60 ms of time to first token).
 *
 * <p>The gateway cannot see the engines' caches, so it keeps an approximate {@link PrefixIndex} of its own
 * decisions: the prompt (chat messages serialized) is cut into 64-character blocks (about 16 tokens, one
 * vLLM KV block), chain-hashed from a seed made of the model and adapter names, and every block of a prompt
 * routed to a pod is recorded against that pod. Score: {@code matched blocks / prompt blocks}, where the
 * match counts the leading blocks the pod holds and stops at the first block no pod holds. Prompts shorter
 * than one block score 0 everywhere.
 *
 * <p>A pod's cache is finite: when its scrape reports the KV geometry ({@code block_size × num_gpu_blocks}),
 * the index keeps at most that many tokens' worth of blocks for it, so prompts the pod must have evicted stop
 * attracting requests to it.
 *
 * <p>Each gateway replica learns only from its own decisions. Learning happens through {@link #picked},
 * including decisions the fallback makes, and endpoints that leave the pool are forgotten.
 */
public final class PrefixCacheScorer implements Scorer, PickObserver, MembershipListener, PrefixIndexed {

    public static final String TYPE = "prefix-cache-scorer";

    /** The longest prompt hashed, in characters: {@code blockSize × maxBlocks}; it sizes a per-thread buffer. */
    static final int MAX_HASHED_CHARS = 1 << 20;
    /** The most pods an index may track: its per-pod arrays are allocated up front (about 40 bytes a pod). */
    static final int MAX_INDEX_ENDPOINTS = 1 << 16;

    /**
     * Parameters: {@code blockSize} (prompt characters per block, a multiple of 16; 64 ≈ 16 tokens),
     * {@code maxBlocks} (blocks hashed per prompt at most), and the index bounds {@code blocksPerEndpoint},
     * {@code maxIndexEntries}, {@code maxIndexEndpoints} (see {@link PrefixIndex}).
     */
    public static final PluginType<Scorer> PLUGIN = PluginType.scorer(TYPE, parameters -> {
        int blockSize = parameters.integer("blockSize", PromptBlocks.DEFAULT_BLOCK_CHARS, 16, 4096);
        if (blockSize % 16 != 0) {
            throw parameters.invalid("blockSize", "must be a multiple of 16, got " + blockSize);
        }
        int maxBlocks = parameters.integer("maxBlocks", PromptBlocks.DEFAULT_MAX_BLOCKS, 1, MAX_HASHED_CHARS / 16);
        if ((long) blockSize * maxBlocks > MAX_HASHED_CHARS) {
            throw parameters.invalid("maxBlocks", "× blockSize must be at most " + MAX_HASHED_CHARS
                    + " characters, got " + maxBlocks + " × " + blockSize);
        }
        int blocksPerEndpoint = parameters.integer("blocksPerEndpoint", PrefixIndex.DEFAULT_BLOCKS_PER_ENDPOINT, 1,
                PrefixIndex.MAX_ENTRIES);
        int maxIndexEndpoints = parameters.integer("maxIndexEndpoints", PrefixIndex.DEFAULT_MAX_ENDPOINTS, 1,
                MAX_INDEX_ENDPOINTS);
        int maxIndexEntries = parameters.integer("maxIndexEntries", PrefixIndex.DEFAULT_MAX_ENTRIES, 1,
                PrefixIndex.MAX_ENTRIES);
        if (maxIndexEntries < maxIndexEndpoints) {
            throw parameters.invalid("maxIndexEntries", "must be at least maxIndexEndpoints (" + maxIndexEndpoints
                    + "), got " + maxIndexEntries);
        }
        return new PrefixCacheScorer(new PrefixIndex(blocksPerEndpoint, maxIndexEntries, maxIndexEndpoints), blockSize,
                maxBlocks);
    });

    private final PrefixIndex index;
    private final int blockChars;
    private final int maxBlocks;
    private final int blockTokens;

    public PrefixCacheScorer(PrefixIndex index) {
        this(index, PromptBlocks.DEFAULT_BLOCK_CHARS, PromptBlocks.DEFAULT_MAX_BLOCKS);
    }

    /**
     * @param blockChars prompt characters per index block, as {@link PromptBlocks} cuts them
     * @param maxBlocks  blocks hashed per prompt at most
     */
    public PrefixCacheScorer(PrefixIndex index, int blockChars, int maxBlocks) {
        this.index = index;
        this.blockChars = blockChars;
        this.maxBlocks = maxBlocks;
        this.blockTokens = Math.max(1, blockChars / InferenceRequest.CHARS_PER_TOKEN);
    }

    @Override
    public void score(SchedulingCycle cycle, List<EndpointState> endpoints, double[] scores) {
        PromptBlocks blocks = cycle.promptBlocks(blockChars, maxBlocks);
        int total = blocks.count();
        if (total == 0) {
            return;
        }
        int[] matched = cycle.intScratch(endpoints.size());
        if (index.match(blocks.hashes(), total, new EndpointsOf(endpoints), matched) == 0) {
            return;
        }
        for (int i = 0; i < endpoints.size(); i++) {
            scores[i] = (double) matched[i] / total;
            cycle.expectCachedTokens(i, matched[i] * blockTokens);
        }
    }

    /** Deciding a pick means the pod probably holds the longest part of the prompt. */
    @Override
    public PickReason reason() {
        return PickReason.PREFIX_HIT;
    }

    @Override
    public void picked(SchedulingCycle cycle, EndpointState chosen) {
        PromptBlocks blocks = cycle.promptBlocks(blockChars, maxBlocks);
        index.record(blocks.hashes(), blocks.count(), chosen.endpoint(), cacheBlocks(chosen.metrics()));
    }

    /** The pod's KV cache in index blocks, 0 when its scrape does not say. */
    int cacheBlocks(EndpointMetrics m) {
        if (m == null || m.kvBlockSize() <= 0 || m.kvTotalBlocks() <= 0) {
            return 0;
        }
        return (int) Math.min(Integer.MAX_VALUE, m.kvTotalBlocks() * m.kvBlockSize() / blockTokens);
    }

    @Override
    public void endpointsChanged(List<Endpoint> current) {
        index.retain(current);
    }

    public PrefixIndex index() {
        return index;
    }

    @Override
    public long indexEntries() {
        return index.entries();
    }

    @Override
    public String toString() {
        return TYPE;
    }

    /** The endpoints of the states, without copying. */
    private static final class EndpointsOf extends AbstractList<Endpoint> {
        private final List<EndpointState> states;

        EndpointsOf(List<EndpointState> states) {
            this.states = states;
        }

        @Override
        public Endpoint get(int index) {
            return states.get(index).endpoint();
        }

        @Override
        public int size() {
            return states.size();
        }
    }
}
