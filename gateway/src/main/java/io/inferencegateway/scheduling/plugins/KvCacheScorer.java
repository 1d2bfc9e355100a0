package io.inferencegateway.scheduling.plugins;

import java.util.List;

import io.inferencegateway.domain.PickReason;
import io.inferencegateway.scheduling.framework.EndpointState;
import io.inferencegateway.scheduling.framework.PluginType;
import io.inferencegateway.scheduling.framework.Scorer;
import io.inferencegateway.scheduling.framework.SchedulingCycle;

/**
 * {@value #TYPE}: prefers the endpoint with the most free KV cache. A pod that runs out of KV blocks stops
 * admitting new requests and preempts running ones (which then recompute their prefill), so free cache is
 * headroom for the request's prompt and output.
 *
 * <p>Score: {@code 1 - kvUsage}, where the usage includes the estimated growth from prompts the gateway
 * sent since the scrape. Absolute, not relative: two pods at 0.30 and 0.35 score 0.70 and 0.65. Unknown
 * usage (an engine without the metric, or a pod never scraped) scores 0: no evidence of headroom.
 */
public final class KvCacheScorer implements Scorer {

    public static final String TYPE = "kv-cache-scorer";
    /** Takes no parameters. */
    public static final PluginType<Scorer> PLUGIN = PluginType.scorer(TYPE, parameters -> new KvCacheScorer());

    @Override
    public void score(SchedulingCycle cycle, List<EndpointState> endpoints, double[] scores) {
        for (int i = 0; i < endpoints.size(); i++) {
            double kv = endpoints.get(i).kvUsage();
            scores[i] = Double.isNaN(kv) ? 0.0 : 1.0 - kv;
        }
    }

    /** Deciding a pick means the pod had the most free KV cache. */
    @Override
    public PickReason reason() {
        return PickReason.LEAST_LOADED;
    }

    @Override
    public String toString() {
        return TYPE;
    }
}
