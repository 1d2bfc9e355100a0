package io.inferencegateway.scheduling.plugins;

import java.util.List;

import io.inferencegateway.domain.PickReason;
import io.inferencegateway.scheduling.framework.EndpointState;
import io.inferencegateway.scheduling.framework.PluginType;
import io.inferencegateway.scheduling.framework.Scorer;
import io.inferencegateway.scheduling.framework.SchedulingCycle;

/**
 * The load scorers: each prefers the endpoint with the least of one load figure, and they differ by that figure
 * alone. Deciding a pick means the pod was the least loaded ({@link PickReason#LEAST_LOADED}). None takes parameters.
 * <ul>
 * <li>{@value #QUEUE_TYPE}: the shortest engine queue, the gateway's own dispatches since the last scrape included. A
 * queued request waits for a batch slot before its prefill even starts, so queue depth is the most direct predictor
 * of time to first token. Relative: {@code (maxQ − q) / (maxQ − minQ)} over the candidates, 1.0 for all when equal;
 * with queues 10 and 12 the first still scores 1.0 (the saturation filter keeps requests off pods whose queues are long
 * in absolute terms).</li>
 * <li>{@value #RUNNING_REQUESTS_TYPE}: the smallest running batch (lowered when completions since the scrape drained
 * the queue). Every decode step of a batch gets slower as the batch grows and a new prefill shares the step with it,
 * so among pods with empty queues the one with fewer running requests usually answers first. Relative, as the queue
 * scorer's. Off by default (weight 0); the {@code latency} profile turns it on.</li>
 * <li>{@value #KV_CACHE_TYPE}: the most free KV cache, the estimated growth from prompts sent since the scrape
 * included. A pod that runs out of KV blocks stops admitting new requests and preempts running ones (which then
 * recompute their prefill), so free cache is headroom for the request's prompt and output. Absolute: {@code 1 −
 * kvUsage} (pods at 0.30 and 0.35 score 0.70 and 0.65); unknown usage (an engine without the metric, a pod never
 * scraped) scores 0: no evidence of headroom.</li>
 * <li>{@value #QUEUE_DEPTH_TYPE}: at a global tier, the cluster with the shortest queue per ready pod. A cluster's
 * summary counts every request queued on its pods and in its gateway; clusters differ in size, so 40 queued over 20
 * pods is a shorter wait than 10 over 2. Relative, as the queue scorer's, on {@code waiting / ready pods}; endpoints
 * without a summary (pods, providers) count their queue as it is.</li>
 * </ul>
 * A new load figure is one more line here, and its card in docs/scheduling.md.
 */
public final class LoadScorer extends NamedScorer {

    public static final String QUEUE_TYPE = "queue-scorer";
    public static final String RUNNING_REQUESTS_TYPE = "running-requests-scorer";
    public static final String KV_CACHE_TYPE = "kv-cache-scorer";
    public static final String QUEUE_DEPTH_TYPE = "queue-depth-scorer";

    public static final PluginType<Scorer> QUEUE = type(QUEUE_TYPE, Figure.QUEUE);
    public static final PluginType<Scorer> RUNNING_REQUESTS = type(RUNNING_REQUESTS_TYPE, Figure.RUNNING);
    public static final PluginType<Scorer> KV_CACHE = type(KV_CACHE_TYPE, Figure.KV_CACHE);
    public static final PluginType<Scorer> QUEUE_DEPTH = type(QUEUE_DEPTH_TYPE, Figure.QUEUE_PER_POD);

    /** The load figure a scorer ranks: read straight off the state (no lambda: every request reads it per pod). */
    private enum Figure {
        QUEUE, RUNNING, KV_CACHE, QUEUE_PER_POD;

        double of(EndpointState e) {
            return switch (this) {
                case QUEUE -> e.waiting();
                case RUNNING -> e.running();
                case KV_CACHE -> e.kvUsage();
                case QUEUE_PER_POD -> TargetFacts.queuePerPod(e);
            };
        }
    }

    private final Figure figure;

    private LoadScorer(String type, Figure figure) {
        super(type, PickReason.LEAST_LOADED);
        this.figure = figure;
    }

    private static PluginType<Scorer> type(String type, Figure figure) {
        return PluginType.scorer(type, parameters -> new LoadScorer(type, figure));
    }

    /** The queue scorer, for tests and hand-built profiles. */
    public static Scorer queue() {
        return new LoadScorer(QUEUE_TYPE, Figure.QUEUE);
    }

    /** The running-requests scorer, for tests and hand-built profiles. */
    public static Scorer runningRequests() {
        return new LoadScorer(RUNNING_REQUESTS_TYPE, Figure.RUNNING);
    }

    /** The KV-cache scorer, for tests and hand-built profiles. */
    public static Scorer kvCache() {
        return new LoadScorer(KV_CACHE_TYPE, Figure.KV_CACHE);
    }

    /** The queue-depth scorer, for tests and hand-built profiles. */
    public static Scorer queueDepth() {
        return new LoadScorer(QUEUE_DEPTH_TYPE, Figure.QUEUE_PER_POD);
    }

    /**
     * KV cache: {@code 1 − use}, absolute (NaN: 0). The rest: min-max over the candidates, the lowest 1 and the highest
     * 0, all 1.0 when equal (NaN: 0, no part in the range).
     */
    @Override
    public void score(SchedulingCycle cycle, List<EndpointState> endpoints, double[] scores) {
        int n = endpoints.size();
        if (figure == Figure.KV_CACHE) {
            for (int i = 0; i < n; i++) {
                double kv = endpoints.get(i).kvUsage();
                scores[i] = Double.isNaN(kv) ? 0.0 : 1.0 - kv;
            }
            return;
        }
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < n; i++) {
            double v = figure.of(endpoints.get(i));
            scores[i] = v; // kept for the second pass
            if (!Double.isNaN(v)) {
                min = Math.min(min, v);
                max = Math.max(max, v);
            }
        }
        for (int i = 0; i < n; i++) {
            double v = scores[i];
            scores[i] = Double.isNaN(v) ? 0.0 : max == min ? 1.0 : (max - v) / (max - min);
        }
    }
}
