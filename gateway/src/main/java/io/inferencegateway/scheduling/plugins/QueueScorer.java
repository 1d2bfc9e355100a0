package io.inferencegateway.scheduling.plugins;

import java.util.List;

import io.inferencegateway.domain.PickReason;
import io.inferencegateway.scheduling.framework.EndpointState;
import io.inferencegateway.scheduling.framework.PluginType;
import io.inferencegateway.scheduling.framework.Scorer;
import io.inferencegateway.scheduling.framework.SchedulingCycle;

/**
 * {@value #TYPE}: prefers the endpoint with the shortest engine queue. A queued request waits for a batch
 * slot before its prefill even starts, so queue depth is the most direct predictor of time to first token.
 *
 * <p>Score: {@code (maxQ - q) / (maxQ - minQ)} over the candidates, where {@code q} is the waiting count
 * including the gateway's own dispatches since the last scrape; 1.0 for every endpoint when all are equal.
 * Relative, not absolute: with queues 10 and 12 the first still scores 1.0; the saturation filter is what
 * keeps requests off pods whose queues are long in absolute terms.
 */
public final class QueueScorer implements Scorer {

    public static final String TYPE = "queue-scorer";
    /** Takes no parameters. */
    public static final PluginType<Scorer> PLUGIN = PluginType.scorer(TYPE, parameters -> new QueueScorer());

    @Override
    public void score(SchedulingCycle cycle, List<EndpointState> endpoints, double[] scores) {
        MinMax.lowerIsBetter(endpoints, EndpointState::waiting, scores);
    }

    /** Deciding a pick means the pod had the shortest queue. */
    @Override
    public PickReason reason() {
        return PickReason.LEAST_LOADED;
    }

    @Override
    public String toString() {
        return TYPE;
    }
}
