package io.inferencegateway.scheduling.plugins;

import java.util.List;
import java.util.Set;

import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.domain.PickReason;
import io.inferencegateway.metrics.EndpointMetrics;
import io.inferencegateway.config.ReplicaConfig;
import io.inferencegateway.scheduling.framework.DataProducer;
import io.inferencegateway.scheduling.framework.EndpointState;
import io.inferencegateway.scheduling.framework.LifecyclePlugin;
import io.inferencegateway.scheduling.framework.MembershipListener;
import io.inferencegateway.scheduling.framework.PluginContext;
import io.inferencegateway.scheduling.framework.PluginType;
import io.inferencegateway.scheduling.framework.Scorer;
import io.inferencegateway.scheduling.framework.SchedulingCycle;
import io.inferencegateway.scheduling.framework.StaleFallback;
import io.inferencegateway.scheduling.prefix.PrefixIndex;
import io.inferencegateway.scheduling.prefix.PrefixSharing;
import io.inferencegateway.scheduling.prefix.PromptBlocks;
import io.inferencegateway.scheduling.prefix.RendezvousHomes;

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
 * <p>It serves four extension points, registered by its factory: the scorer; a producer that counts, once per
 * request, the prompt tokens each candidate probably holds (which the latency prediction and this scorer read); a
 * lifecycle plugin that records each committed pick in the index ({@link #committed}, including decisions the fallback
 * makes); and a membership listener that forgets endpoints that leave the pool. Each gateway replica learns only from
 * its own decisions.
 *
 * <p>With several active replicas ({@code replicas.placement: rendezvous}), each replica
 * sees only part of the traffic, so their indexes would send one shared prefix to different pods. The scorer
 * then also credits the prompt's {@link RendezvousHomes home}, which every replica computes alike: the home scores
 * as a full hit and other holders half their match, so a prefix lives on one pod fleet-wide and a hot prefix
 * spills to the same second pod on every replica.
 *
 * <p>With {@code replicas.placement: shared} the replicas tell each other every decision,
 * so each index learns the whole fleet's traffic and there is no home to follow: a new prefix goes where the load
 * scorers say, as with one gateway. While the sharing is down, prefixes no pod holds yet go to their rendezvous home,
 * so that the replicas still agree on those.
 */
public final class PrefixCacheScorer extends NamedScorer implements DataProducer, LifecyclePlugin, MembershipListener {

    public static final String TYPE = "prefix-cache-scorer";

    /**
     * Under rendezvous placement, the share of its match a pod keeps when it is not the prompt's home: a pod that holds
     * the whole prompt by chance scores 0.5 against the home's 1.0, so with the default weights the home wins unless
     * the load scorers see it clearly worse off.
     */
    static final double OTHER_HOLDER_FACTOR = 0.5;

    /** The longest prompt hashed, in characters: {@code blockSize × maxBlocks}; it sizes a per-thread buffer. */
    static final int MAX_HASHED_CHARS = 1 << 20;
    /** The most pods an index may track: its per-pod arrays are allocated up front (about 40 bytes a pod). */
    static final int MAX_INDEX_ENDPOINTS = 1 << 16;

    /**
     * Parameters: {@code blockSize} (prompt characters per block, a multiple of 16; 64 ≈ 16 tokens),
     * {@code maxBlocks} (blocks hashed per prompt at most), and the index bounds {@code blocksPerEndpoint},
     * {@code maxIndexEntries}, {@code maxIndexEndpoints} (see {@link PrefixIndex}). With several replicas
     * ({@code replicas.placement} of its pool) it follows their placement.
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
        return forPool(new PrefixIndex(blocksPerEndpoint, maxIndexEntries, maxIndexEndpoints), blockSize, maxBlocks,
                parameters.pool());
    });

    private final PrefixIndex index;
    private final int blockChars;
    private final int maxBlocks;
    private final int blockTokens;
    private final RendezvousHomes placement;
    /** Shared placement: the other replicas' side; null otherwise. Set once, before the scorer is used. */
    private PrefixSharing.Feed feed;
    private volatile Set<Endpoint> members;

    public PrefixCacheScorer(PrefixIndex index) {
        this(index, PromptBlocks.DEFAULT_BLOCK_CHARS, PromptBlocks.DEFAULT_MAX_BLOCKS);
    }

    /**
     * @param blockChars prompt characters per index block, as {@link PromptBlocks} cuts them
     * @param maxBlocks  blocks hashed per prompt at most
     */
    public PrefixCacheScorer(PrefixIndex index, int blockChars, int maxBlocks) {
        this(index, blockChars, maxBlocks, null);
    }

    private PrefixCacheScorer(PrefixIndex index, int blockChars, int maxBlocks, RendezvousHomes placement) {
        super(TYPE, PickReason.PREFIX_HIT);
        this.index = index;
        this.blockChars = blockChars;
        this.maxBlocks = maxBlocks;
        this.blockTokens = Math.max(1, blockChars / InferenceRequest.CHARS_PER_TOKEN);
        this.placement = placement;
    }

    /**
     * The scorer for {@code pool}, registered at its extension points: with {@code replicas.placement: rendezvous} it
     * also credits each known prefix's rendezvous home; with {@code shared} its index also records the other replicas'
     * decisions and it tells them its own (while they cannot be reached, prefixes no pod holds go to their home).
     */
    public static PrefixCacheScorer forPool(PrefixIndex index, int blockChars, int maxBlocks, PluginContext pool) {
        ReplicaConfig replicas = pool.replicas();
        RendezvousHomes homes = replicas.rendezvousHomes()
                ? new RendezvousHomes(replicas.loadBound(), replicas.keyBlocks()) : null;
        PrefixCacheScorer scorer = new PrefixCacheScorer(index, blockChars, maxBlocks, homes);
        if (homes != null && replicas.placement() == ReplicaConfig.Coordination.SHARED) {
            scorer.feed = pool.sharing().join(scorer::routedElsewhere);
        }
        pool.producer(DataProducer.FACTS, scorer);
        pool.lifecycle(scorer);
        pool.membership(scorer);
        pool.readsPrompt(blockChars * maxBlocks); // the blocks it hashes, no more
        pool.prefixIndex(index::entries);
        if (homes != null) {
            pool.staleFallback(StaleFallback.PREFIX_HOME, scorer::home);
        }
        return scorer;
    }

    /** Another replica's decision; one for a pod that is not (or no longer) in the pool is ignored. */
    private void routedElsewhere(long[] hashes, int count, Endpoint endpoint, int cacheBlocks) {
        Set<Endpoint> current = members;
        if (current == null || current.contains(endpoint)) {
            index.record(hashes, count, endpoint, cacheBlocks);
        }
    }

    @Override
    public void score(SchedulingCycle cycle, List<EndpointState> endpoints, double[] scores) {
        PromptBlocks blocks = cycle.promptBlocks(blockChars, maxBlocks);
        int total = blocks.count();
        if (total == 0) {
            return;
        }
        // the tokens this scorer's producer counted per candidate, once per request: matched blocks × block tokens
        double perToken = 1.0 / ((double) total * blockTokens);
        int best = 0;
        int n = endpoints.size();
        for (int i = 0; i < n; i++) {
            int cached = endpoints.get(i).cachedTokens();
            if (cached > 0) { // most pods of a big pool hold nothing of the prompt: their score stays 0
                scores[i] = Math.min(1.0, cached * perToken);
                cycle.expectCachedTokens(i, cached);
                best = Math.max(best, cached);
            }
        }
        if (placement != null && (best == 0 ? feed == null || !feed.live() : feed == null)) {
            credit(placement, blocks, total, best, endpoints, scores, cycle);
        }
    }

    /** Counts the prompt tokens every candidate probably holds, into its {@link EndpointState#cachedTokens}. */
    @Override
    public void produce(SchedulingCycle cycle) {
        count(cycle, cycle.states());
    }

    /** Counts into each of {@code states} the prompt tokens the index says its pod holds, where that is more. */
    void count(SchedulingCycle cycle, List<EndpointState> states) {
        cycle.cachedTokensCounted(seesEveryDecision());
        PromptBlocks blocks = cycle.promptBlocks(blockChars, maxBlocks);
        int total = blocks.count();
        if (total == 0) {
            return;
        }
        int n = states.size();
        int[] matched = cycle.intScratch(n);
        if (index.match(blocks.hashes(), total, cycle.endpointView(states), matched) == 0) {
            return;
        }
        for (int i = 0; i < n; i++) {
            if (matched[i] > 0) {
                EndpointState s = states.get(i);
                s.cachedTokens(Math.max(s.cachedTokens(), matched[i] * blockTokens));
            }
        }
    }

    /** Whether the index learns every replica's decisions: one gateway, or replicas that share them and are live. */
    private boolean seesEveryDecision() {
        return placement == null || feed != null && feed.live();
    }

    /**
     * Rendezvous placement on top of the index: the prompt's home (within the load bound) scores as a full hit, and
     * every other pod keeps only {@link #OTHER_HOLDER_FACTOR} of its own match. So a replica sends even a prompt it
     * has never seen to the home, where the other replicas send it too, and holders that got a prefix by chance
     * (before it had a home, or while the home was over its bound) stop attracting it. This is consistent hashing
     * with bounded loads, on the pods' (corrected) queues; the load scorers still choose among the pods within the
     * bound.
     */
    private void credit(RendezvousHomes placement, PromptBlocks blocks, int total, int bestCachedTokens,
            List<EndpointState> endpoints, double[] scores, SchedulingCycle cycle) {
        int n = endpoints.size();
        int[] loads = cycle.intScratch(n);
        for (int i = 0; i < n; i++) {
            // the queue, not the batch: the batch is capped by the engine, and waiting is what delays a first token
            loads[i] = endpoints.get(i).waiting();
        }
        int home = placement.home(placement.key(blocks.hashes(), total), cycle.endpointView(endpoints), loads, 0);
        if (home < 0) {
            return;
        }
        for (int i = 0; i < n; i++) {
            if (i != home) {
                scores[i] *= OTHER_HOLDER_FACTOR;
            }
        }
        scores[home] = 1.0;
        if (bestCachedTokens > 0) {
            cycle.expectCachedTokens(home, bestCachedTokens);
        }
    }

    /**
     * The request's home among {@code states} by its placement, with each state's in-flight requests as its load; -1
     * without placement (or shared and live) or when the prompt has no full block. Its pool's stale fallback: replicas
     * keep sending a prefix to one pod while metrics are stale.
     */
    int home(SchedulingCycle cycle, List<EndpointState> states) {
        if (seesEveryDecision()) { // one gateway, or shared and live: the fallback of one gateway
            return -1;
        }
        PromptBlocks blocks = cycle.promptBlocks(blockChars, maxBlocks);
        if (blocks.count() == 0) {
            return -1;
        }
        int n = states.size();
        int[] loads = cycle.intScratch(n);
        for (int i = 0; i < n; i++) {
            loads[i] = (int) Math.min(Integer.MAX_VALUE, states.get(i).inFlight());
        }
        return placement.home(placement.key(blocks.hashes(), blocks.count()), cycle.endpointView(states), loads, 0);
    }

    @Override
    public void committed(SchedulingCycle cycle, EndpointState chosen) {
        PromptBlocks blocks = cycle.promptBlocks(blockChars, maxBlocks);
        int cacheBlocks = cacheBlocks(chosen.metrics());
        index.record(blocks.hashes(), blocks.count(), chosen.endpoint(), cacheBlocks);
        if (feed != null && blocks.count() > 0) {
            feed.publish(blocks.hashes(), blocks.count(), chosen.endpoint(), cacheBlocks);
        }
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
        members = Set.copyOf(current);
        index.retain(current);
    }

    /** The rendezvous placement it credits, null when it follows its own index only. */
    public RendezvousHomes placement() {
        return placement;
    }

    public PrefixIndex index() {
        return index;
    }
}
