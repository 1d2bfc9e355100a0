package io.inferencegateway.scheduling;

import java.time.Duration;

import io.inferencegateway.config.PoolConfig;
import io.inferencegateway.scheduling.plugins.SaturationFilter;
import io.inferencegateway.scheduling.prefix.PrefixIndex;
import io.inferencegateway.scheduling.prefix.PromptBlocks;

/**
 * The GPU-aware policy's tunables besides the weights. Defaults follow the design notes; none of them is
 * in the user's config yet.
 *
 * @param waitingLimit          queue length at which a pod counts as saturated
 * @param kvLimit               KV-cache use at which a pod counts as saturated
 * @param staleAfter            metrics older than this count as saturated; when all are, the fallback runs
 * @param blockChars            prompt characters per prefix block (64 ≈ 16 tokens)
 * @param maxBlocks             prefix blocks hashed per prompt at most
 * @param blocksPerEndpoint     prefix index LRU size of each pod
 * @param maxIndexEntries       prefix index size over all pods: the memory bound
 * @param maxIndexEndpoints     pods the prefix index tracks at most
 * @param weightedRandomPicker  pick in proportion to scores instead of taking the maximum
 */
public record GpuAwareSettings(
        int waitingLimit,
        double kvLimit,
        Duration staleAfter,
        int blockChars,
        int maxBlocks,
        int blocksPerEndpoint,
        int maxIndexEntries,
        int maxIndexEndpoints,
        boolean weightedRandomPicker) {

    public static final Duration DEFAULT_STALE_AFTER = Duration.ofMillis(200);

    public static final GpuAwareSettings DEFAULTS = new GpuAwareSettings(SaturationFilter.DEFAULT_WAITING_LIMIT,
            SaturationFilter.DEFAULT_KV_LIMIT, DEFAULT_STALE_AFTER, PromptBlocks.DEFAULT_BLOCK_CHARS,
            PromptBlocks.DEFAULT_MAX_BLOCKS, PrefixIndex.DEFAULT_BLOCKS_PER_ENDPOINT, PrefixIndex.DEFAULT_MAX_ENTRIES,
            PrefixIndex.DEFAULT_MAX_ENDPOINTS, false);

    public GpuAwareSettings {
        if (staleAfter == null || staleAfter.isNegative() || staleAfter.isZero()) {
            throw new IllegalArgumentException("staleAfter must be positive, got " + staleAfter);
        }
    }

    /**
     * The defaults for a pool: metrics count as stale after 200 ms or four scrape intervals, whichever is
     * longer, so that a pool scraped every second is not permanently in fallback.
     */
    public static GpuAwareSettings forPool(PoolConfig pool) {
        Duration fourScrapes = pool.metricsInterval().multipliedBy(4);
        return DEFAULTS.withStaleAfter(fourScrapes.compareTo(DEFAULT_STALE_AFTER) > 0 ? fourScrapes
                : DEFAULT_STALE_AFTER);
    }

    public GpuAwareSettings withStaleAfter(Duration d) {
        return new GpuAwareSettings(waitingLimit, kvLimit, d, blockChars, maxBlocks, blocksPerEndpoint,
                maxIndexEntries, maxIndexEndpoints, weightedRandomPicker);
    }

    public GpuAwareSettings withPrefixIndex(int blocksPerEndpoint, int maxIndexEntries, int maxIndexEndpoints) {
        return new GpuAwareSettings(waitingLimit, kvLimit, staleAfter, blockChars, maxBlocks, blocksPerEndpoint,
                maxIndexEntries, maxIndexEndpoints, weightedRandomPicker);
    }

    public GpuAwareSettings withWeightedRandomPicker(boolean on) {
        return new GpuAwareSettings(waitingLimit, kvLimit, staleAfter, blockChars, maxBlocks, blocksPerEndpoint,
                maxIndexEntries, maxIndexEndpoints, on);
    }
}
