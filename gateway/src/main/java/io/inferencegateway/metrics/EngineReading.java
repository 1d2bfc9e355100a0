package io.inferencegateway.metrics;

import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;

import io.inferencegateway.domain.InFlightRequests;

/**
 * What one engine's exposition says, gathered sample by sample while the parser runs, then turned into
 * {@link EndpointMetrics}. A model server's reading is its engine's {@link SeriesTable}'s, which feeds the accumulators
 * here as the table says (a cluster's capacity summary has a reading of its own, {@link InferenceGatewayDialect});
 * this class holds the rules every engine shares:
 *
 * <ul>
 *   <li>waiting and running requests: summed over data-parallel ranks (each rank has its own queue);</li>
 *   <li>KV-cache use: the fullest rank (the saturation detector must trip before any rank starts preempting);</li>
 *   <li>KV blocks: summed over ranks (the pod's whole cache); block size: the largest reported;</li>
 *   <li>prefix-cache counters: summed over every series that counts GPU prefix-cache tokens;</li>
 *   <li>LoRA: the {@code lora_requests_info} series with the largest value, which is the time it was last set;</li>
 *   <li>whatever the exposition does not carry stays unknown: NaN for fractions and counters, -1 for counts.</li>
 * </ul>
 *
 * Not thread-safe: one instance per exposition.
 */
public abstract class EngineReading implements SampleVisitor {

    private final MetricNameTable names;

    protected final PerRankValues waiting = new PerRankValues();
    protected final PerRankValues running = new PerRankValues();
    protected final PerRankValues kvUsage = new PerRankValues();
    protected final PerRankValues kvTotalBlocks = new PerRankValues();
    private double kvBlockSize = Double.NaN;
    private double prefixCacheQueries = Double.NaN;
    private double prefixCacheHits = Double.NaN;

    private double loraSetAt = Double.NEGATIVE_INFINITY;
    private String runningAdapters;
    private String waitingAdapters;
    private int maxLora = -1;
    private boolean finished;

    /** @param names the series this engine reads; a sample's id is its index in the table */
    protected EngineReading(MetricNameTable names) {
        this.names = names;
    }

    @Override
    public final int select(byte[] text, int nameOffset, int nameLength, int nameHash) {
        return names.find(text, nameOffset, nameLength, nameHash);
    }

    @Override
    public final MetricNameTable wantedNames() {
        return names;
    }

    /** Fallbacks that can only be settled once the whole exposition was read (say, a metric's older name). */
    protected void finish() {
    }

    /** Adapters held on the endpoint that no {@code lora_requests_info} series names (a cluster's warm adapters). */
    protected Set<String> loadedAdapters() {
        return Set.of();
    }

    /** What only a cluster gateway's summary carries ({@link ClusterCapacity}); null for a model server. */
    protected ClusterCapacity cluster() {
        return null;
    }

    public final EndpointMetrics toMetrics(long scrapeStartedNanos, InFlightRequests.Counters dispatchedAtScrape) {
        Objects.requireNonNull(dispatchedAtScrape, "dispatchedAtScrape");
        if (!finished) {
            finish();
            finished = true;
        }
        return complete(new EndpointMetrics(
                count(waiting.sum()),
                count(running.sum()),
                fraction(kvUsage.max()),
                runningAdapters == null ? loadedAdapters() : adapters(runningAdapters),
                adapters(waitingAdapters),
                maxLora,
                count(kvBlockSize),
                Double.isNaN(kvTotalBlocks.sum()) ? -1 : Math.round(kvTotalBlocks.sum()),
                prefixCacheQueries,
                prefixCacheHits,
                scrapeStartedNanos,
                dispatchedAtScrape,
                cluster()));
    }

    /** The reading as built, to finish with what needs its stamps (a whole summary's per-model readings). */
    protected EndpointMetrics complete(EndpointMetrics metrics) {
        return metrics;
    }

    protected final void addPrefixCacheQueries(double tokens) {
        if (Double.isFinite(tokens) && tokens >= 0) {
            prefixCacheQueries = Double.isNaN(prefixCacheQueries) ? tokens : prefixCacheQueries + tokens;
        }
    }

    protected final void addPrefixCacheHits(double tokens) {
        if (Double.isFinite(tokens) && tokens >= 0) {
            prefixCacheHits = Double.isNaN(prefixCacheHits) ? tokens : prefixCacheHits + tokens;
        }
    }

    protected final boolean hasPrefixCacheCounters() {
        return !Double.isNaN(prefixCacheQueries) || !Double.isNaN(prefixCacheHits);
    }

    protected final void recordBlockSize(double tokensPerBlock) {
        if (Double.isFinite(tokensPerBlock) && tokensPerBlock > 0) {
            kvBlockSize = Double.isNaN(kvBlockSize) ? tokensPerBlock : Math.max(kvBlockSize, tokensPerBlock);
        }
    }

    /**
     * One series of vLLM's {@code lora_requests_info}: its value is the Unix time it was last set, and every label
     * combination ever seen stays exported, so only the newest one is current.
     */
    protected final void recordLoraInfo(Labels labels, double setAt) {
        if (Double.isNaN(setAt) || setAt <= loraSetAt) {
            return;
        }
        loraSetAt = setAt;
        runningAdapters = labels.get("running_lora_adapters");
        waitingAdapters = labels.get("waiting_lora_adapters");
        int max = labels.indexOf("max_lora");
        double slots = max < 0 ? Double.NaN : labels.numberValue(max);
        maxLora = Double.isFinite(slots) && slots >= 0 ? (int) Math.min(Integer.MAX_VALUE, Math.round(slots)) : -1;
    }

    private static int count(double value) {
        return Double.isNaN(value) ? -1 : (int) Math.min(Integer.MAX_VALUE, Math.round(value));
    }

    private static double fraction(double value) {
        return Double.isNaN(value) ? Double.NaN : Math.min(1.0, Math.max(0.0, value));
    }

    /** Adapter names are comma-separated; an empty label value means none. */
    private static Set<String> adapters(String csv) {
        if (csv == null || csv.isEmpty()) {
            return Set.of();
        }
        Set<String> names = new LinkedHashSet<>();
        for (String name : csv.split(",")) {
            String trimmed = name.trim();
            if (!trimmed.isEmpty()) {
                names.add(trimmed);
            }
        }
        return names;
    }
}
