package io.inferencegateway.scheduling.plugins;

import java.util.List;

import io.inferencegateway.domain.PickReason;
import io.inferencegateway.scheduling.framework.EndpointState;
import io.inferencegateway.scheduling.framework.Filter;
import io.inferencegateway.scheduling.framework.PluginType;
import io.inferencegateway.scheduling.framework.SchedulingCycle;

/**
 * {@value #TYPE}: sends an adapter request to a pod that has the adapter loaded, or else to one that can
 * load it at once. Weighted scores alone cannot promise that: the gap between "loaded" (1.0) and "free
 * slot" (0.8) is worth {@code 0.2 × weight}, less than one queued request's difference in the queue
 * scorer. Running after the saturation filter, it keeps:
 * <ol>
 * <li>the endpoints running the adapter, if any;</li>
 * <li>else the endpoints with a free adapter slot, if any (the scorers then pick the one with the most
 * spare capacity);</li>
 * <li>else the endpoints where requests for the adapter already wait for a slot: an engine with every
 * slot taken admits a new adapter only once one of its running adapters has drained, and then admits all
 * of that adapter's queued requests together. Spreading them instead makes the adapter hold up one more
 * pod's batch and, once loaded, take a slot on each, which leaves even fewer slots for the next cold one;</li>
 * <li>else every endpoint.</li>
 * </ol>
 * Because saturated pods are already gone, a hot adapter spreads to a new pod once its current pods fill
 * up, rather than queueing behind them. Base-model requests pass untouched.
 */
public final class LoraAffinityFilter implements Filter {

    public static final String TYPE = "lora-affinity-filter";
    /** Takes no parameters. */
    public static final PluginType<Filter> PLUGIN = PluginType.filter(TYPE, parameters -> new LoraAffinityFilter());
    /** Outcome of a pod removed because others hold (or can load) the adapter sooner. */
    public static final String ADAPTER_MISSING = "adapter_missing";

    @Override
    public List<EndpointState> filter(SchedulingCycle cycle, List<EndpointState> endpoints) {
        String adapter = cycle.request().adapter();
        if (adapter == null) {
            return endpoints;
        }
        int n = endpoints.size();
        double[] affinity = cycle.doubleScratch(n); // each pod's once: the kept ones are those at the best
        double best = 0;
        for (int i = 0; i < n; i++) {
            affinity[i] = LoraAffinityScorer.affinity(endpoints.get(i), adapter);
            best = Math.max(best, affinity[i]);
        }
        if (best < LoraAffinityScorer.WAITING) {
            return endpoints;
        }
        int keep = 0;
        for (int i = 0; i < n; i++) {
            if (affinity[i] == best) {
                keep++;
            }
        }
        if (keep == n) {
            return endpoints;
        }
        List<EndpointState> kept = cycle.keptList(endpoints);
        for (int i = 0; i < n; i++) {
            if (affinity[i] == best) {
                kept.add(endpoints.get(i));
            }
        }
        // what is left runs the adapter: when that is one pod, residency is why it gets the request
        cycle.removed(ADAPTER_MISSING, endpoints.size() - kept.size(),
                best == LoraAffinityScorer.RUNNING ? PickReason.LORA_RESIDENT : null);
        return kept;
    }

    @Override
    public String toString() {
        return TYPE;
    }
}
