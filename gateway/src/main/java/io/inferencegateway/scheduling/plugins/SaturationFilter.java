package io.inferencegateway.scheduling.plugins;

import io.inferencegateway.scheduling.framework.CandidateFilter;
import io.inferencegateway.scheduling.framework.EndpointState;
import io.inferencegateway.scheduling.framework.Filter;
import io.inferencegateway.scheduling.framework.PluginType;
import io.inferencegateway.scheduling.framework.SaturationDetector;
import io.inferencegateway.scheduling.framework.SchedulingCycle;

/**
 * {@value #TYPE}: keeps requests off pods that are full, and off pods whose state is unknown. A pod is
 * saturated when its queue reaches {@code queueDepthThreshold} (default 5), its KV cache reaches
 * {@code kvCacheThreshold} (default 0.8: beyond that, new prompts start preempting running requests), or its
 * metrics are stale (older than the pool's {@code metricsStalenessThreshold}) or missing. Queue and KV include what the gateway sent since the scrape,
 * so a burst saturates a pod in the gateway's eyes before the next scrape says so. Unknown KV (an engine
 * without the metric) never saturates.
 *
 * <p>When every pod is saturated the framework keeps them all (fail open): the scorers then pick the
 * least bad one. Before that, the pool's flow control asks this filter (its pool's {@link SaturationDetector}, which
 * its factory registers) whether every pod is saturated, and holds or sheds the request in the gateway while they are.
 */
public final class SaturationFilter implements CandidateFilter, SaturationDetector {

    public static final String TYPE = "saturation-filter";
    public static final int DEFAULT_WAITING_LIMIT = 5;
    public static final double DEFAULT_KV_LIMIT = 0.8;
    /** Outcome of a pod removed for its queue or KV use. */
    public static final String SATURATED = "saturated";
    /** Outcome of a pod removed because its metrics are older than the staleness limit, or missing. */
    public static final String STALE = "stale";

    /** Parameters: {@code queueDepthThreshold} (at least 1) and {@code kvCacheThreshold} (above 0, at most 1). */
    public static final PluginType<Filter> PLUGIN = PluginType.filter(TYPE, parameters -> {
        SaturationFilter filter = new SaturationFilter(
                parameters.integer("queueDepthThreshold", DEFAULT_WAITING_LIMIT, 1, Integer.MAX_VALUE),
                parameters.fraction("kvCacheThreshold", DEFAULT_KV_LIMIT));
        parameters.pool().saturationDetector(filter);
        return filter;
    });

    private final int waitingLimit;
    private final double kvLimit;

    public SaturationFilter() {
        this(DEFAULT_WAITING_LIMIT, DEFAULT_KV_LIMIT);
    }

    public SaturationFilter(int waitingLimit, double kvLimit) {
        if (waitingLimit < 1 || !(kvLimit > 0 && kvLimit <= 1)) {
            throw new IllegalArgumentException("need waitingLimit >= 1 and 0 < kvLimit <= 1, got "
                    + waitingLimit + ", " + kvLimit);
        }
        this.waitingLimit = waitingLimit;
        this.kvLimit = kvLimit;
    }

    @Override
    public boolean saturated(EndpointState e) {
        return !e.fresh() || e.waiting() >= waitingLimit || e.kvUsage() >= kvLimit; // NaN >= x is false
    }

    @Override
    public String removal(SchedulingCycle cycle, EndpointState e) {
        return !saturated(e) ? null : e.fresh() ? SATURATED : STALE;
    }

    @Override
    public String toString() {
        return TYPE;
    }
}
