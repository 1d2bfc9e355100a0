package io.inferencegateway.metrics;

import java.util.Set;

import io.inferencegateway.domain.InFlightRequests;

/**
 * What one scrape of a model server's {@code /metrics} says, in engine-neutral terms.
 * Unknown values: {@code NaN} for doubles, {@code -1} for counts.
 *
 * @param waiting              requests queued in the engine
 * @param running              requests in the running batch
 * @param kvUsage              KV-cache use, 0..1
 * @param runningAdapters      LoRA adapters in the running batch
 * @param waitingAdapters      LoRA adapters of queued requests
 * @param maxLora              adapter slots on the GPU, -1 when the engine does not say
 * @param kvBlockSize          tokens per KV block, -1 when unknown
 * @param kvTotalBlocks        KV blocks on the GPU, -1 when unknown
 * @param prefixCacheQueries   prefix-cache queried tokens (a counter), NaN when unknown
 * @param prefixCacheHits      prefix-cache hit tokens (a counter), NaN when unknown
 * @param scrapeStartedNanos   {@link System#nanoTime()} (or the injected clock) when the scrape began
 * @param dispatchedAtScrape   the gateway's own counters for this endpoint when the scrape began, so that
 *                             the picker can add what it sent since
 * @param cluster              what only a cluster gateway's capacity summary says (engine {@code inference-gateway});
 *                             null for a model server
 */
public record EndpointMetrics(
        int waiting,
        int running,
        double kvUsage,
        Set<String> runningAdapters,
        Set<String> waitingAdapters,
        int maxLora,
        int kvBlockSize,
        long kvTotalBlocks,
        double prefixCacheQueries,
        double prefixCacheHits,
        long scrapeStartedNanos,
        InFlightRequests.Counters dispatchedAtScrape,
        ClusterCapacity cluster) {

    public EndpointMetrics {
        runningAdapters = Set.copyOf(runningAdapters);
        waitingAdapters = Set.copyOf(waitingAdapters);
    }

    /** A model server's reading: no cluster part. */
    public EndpointMetrics(int waiting, int running, double kvUsage, Set<String> runningAdapters,
            Set<String> waitingAdapters, int maxLora, int kvBlockSize, long kvTotalBlocks, double prefixCacheQueries,
            double prefixCacheHits, long scrapeStartedNanos, InFlightRequests.Counters dispatchedAtScrape) {
        this(waiting, running, kvUsage, runningAdapters, waitingAdapters, maxLora, kvBlockSize, kvTotalBlocks,
                prefixCacheQueries, prefixCacheHits, scrapeStartedNanos, dispatchedAtScrape, null);
    }

    /** The same reading with another cluster part. */
    /**
     * This reading as a pool of {@code model} sees it. A global tier reads a cluster's whole summary once for all its
     * pools; each pool takes its own model's part ({@link ClusterCapacity#models}), or no pod at all when the cluster
     * does not serve the model. A model server's reading, or one of a single model, is its own.
     */
    public EndpointMetrics forModel(String model) {
        if (cluster == null || cluster.models().isEmpty()) {
            return this;
        }
        EndpointMetrics own = cluster.models().get(model);
        return own != null ? own : new EndpointMetrics(-1, -1, Double.NaN, Set.of(), Set.of(), -1, -1, -1, Double.NaN,
                Double.NaN, scrapeStartedNanos, dispatchedAtScrape, cluster.unserved());
    }

    /** This reading with the KV geometry its engine told apart from its exposition. */
    public EndpointMetrics withKvGeometry(EngineDialect.KvGeometry geometry) {
        return new EndpointMetrics(waiting, running, kvUsage, runningAdapters, waitingAdapters, maxLora,
                geometry.blockTokens(), geometry.blocks(), prefixCacheQueries, prefixCacheHits, scrapeStartedNanos,
                dispatchedAtScrape, cluster);
    }

    public EndpointMetrics withCluster(ClusterCapacity capacity) {
        return new EndpointMetrics(waiting, running, kvUsage, runningAdapters, waitingAdapters, maxLora, kvBlockSize,
                kvTotalBlocks, prefixCacheQueries, prefixCacheHits, scrapeStartedNanos, dispatchedAtScrape, capacity);
    }
}
