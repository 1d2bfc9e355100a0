package io.inferencegateway.scheduling.plugins;

import java.util.List;
import java.util.Set;

import io.inferencegateway.domain.PickReason;
import io.inferencegateway.scheduling.framework.EndpointState;
import io.inferencegateway.scheduling.framework.PluginType;
import io.inferencegateway.scheduling.framework.Scorer;
import io.inferencegateway.scheduling.framework.SchedulingCycle;

/**
 * {@value #TYPE}: prefers endpoints where the requested LoRA adapter is already in GPU memory. Loading an
 * adapter stalls the pod's whole batch for a step (milliseconds from host memory, tens of milliseconds
 * from disk), and an engine runs only {@code max_lora} distinct adapters at once, so a request for an
 * adapter the pod does not hold may also wait for a slot.
 *
 * <p>Score, first match wins (from the engine's LoRA info metric):
 * <ul>
 * <li>1.0: the adapter is in the running batch: loaded, no wait for a slot;</li>
 * <li>0.8: running plus waiting adapters use fewer than {@code max_lora} slots: it can be loaded at once;</li>
 * <li>0.6: requests for the adapter are already queued there: it will be loaded for them anyway;</li>
 * <li>0: otherwise, and when the engine does not report LoRA state.</li>
 * </ul>
 * Requests for the base model score 0 everywhere: neutral, the scorer does not move them.
 */
public final class LoraAffinityScorer extends NamedScorer {

    public static final String TYPE = "lora-affinity-scorer";
    /** Takes no parameters. */
    public static final PluginType<Scorer> PLUGIN = PluginType.scorer(TYPE, parameters -> new LoraAffinityScorer());

    public LoraAffinityScorer() {
        super(TYPE, PickReason.LORA_RESIDENT);
    }

    public static final double RUNNING = 1.0;
    public static final double FREE_SLOT = 0.8;
    public static final double WAITING = 0.6;

    @Override
    public void score(SchedulingCycle cycle, List<EndpointState> endpoints, double[] scores) {
        String adapter = cycle.request().adapter();
        if (adapter == null) {
            return; // base model: neutral
        }
        for (int i = 0; i < endpoints.size(); i++) {
            scores[i] = affinity(endpoints.get(i), adapter);
        }
    }

    /** The score of one endpoint for an adapter; shared with {@link LoraAffinityFilter}. */
    static double affinity(EndpointState e, String adapter) {
        Set<String> running = e.runningAdapters();
        if (running.contains(adapter)) {
            return RUNNING;
        }
        Set<String> waiting = e.waitingAdapters();
        int maxLora = e.maxLora();
        if (maxLora > 0 && distinct(running, waiting) < maxLora) {
            return FREE_SLOT;
        }
        return waiting.contains(adapter) ? WAITING : 0.0;
    }

    private static int distinct(Set<String> running, Set<String> waiting) {
        int n = running.size();
        if (waiting.isEmpty()) { // the usual case: no iterator for it
            return n;
        }
        for (String w : waiting) {
            if (!running.contains(w)) {
                n++;
            }
        }
        return n;
    }
}
