package io.inferencegateway.scheduling.plugins;

import java.util.List;

import io.inferencegateway.domain.PickReason;
import io.inferencegateway.scheduling.framework.EndpointState;
import io.inferencegateway.scheduling.framework.PluginType;
import io.inferencegateway.scheduling.framework.Scorer;
import io.inferencegateway.scheduling.framework.SchedulingCycle;

/**
 * {@value #TYPE}: at a global tier, prefers the cluster with the shortest queue per ready pod. A cluster's summary
 * counts every request queued on its pods and in its gateway; clusters differ in size, so 40 queued over 20 pods is a
 * shorter wait than 10 over 2. Score: min-max as the queue scorer's, {@code (max − q) / (max − min)} on {@code q =
 * waiting / ready pods}, the tier's own sends since the poll included; all equal → 1.0. Endpoints without a summary
 * (pods, providers) count their queue as it is.
 */
public final class QueueDepthScorer implements Scorer {

    public static final String TYPE = "queue-depth-scorer";
    /** Takes no parameters. */
    public static final PluginType<Scorer> PLUGIN = PluginType.scorer(TYPE, parameters -> new QueueDepthScorer());

    @Override
    public void score(SchedulingCycle cycle, List<EndpointState> endpoints, double[] scores) {
        MinMax.lowerIsBetter(endpoints, TargetFacts::queuePerPod, scores);
    }

    /** Deciding a pick means the cluster had the shortest queue for its size. */
    @Override
    public PickReason reason() {
        return PickReason.LEAST_LOADED;
    }

    @Override
    public String toString() {
        return TYPE;
    }
}
