package io.inferencegateway.scheduling.plugins;

import java.util.List;

import io.inferencegateway.domain.PickReason;
import io.inferencegateway.scheduling.framework.EndpointState;
import io.inferencegateway.scheduling.framework.PluginType;
import io.inferencegateway.scheduling.framework.Scorer;
import io.inferencegateway.scheduling.framework.SchedulingCycle;

/**
 * {@value #TYPE}: prefers the endpoint with the smallest running batch. Every decode step of a batch gets
 * slower as the batch grows and a new prefill shares the step with it, so among pods with empty queues the
 * one with fewer running requests usually answers first.
 *
 * <p>Score: {@code (maxR - r) / (maxR - minR)} over the candidates on running requests (lowered when
 * completions since the scrape drained the queue); 1.0 for all when every value is equal. Off by default
 * (weight 0); the {@code latency} profile turns it on.
 */
public final class RunningRequestsScorer implements Scorer {

    public static final String TYPE = "running-requests-scorer";
    /** Takes no parameters. */
    public static final PluginType<Scorer> PLUGIN = PluginType.scorer(TYPE, parameters -> new RunningRequestsScorer());

    @Override
    public void score(SchedulingCycle cycle, List<EndpointState> endpoints, double[] scores) {
        MinMax.lowerIsBetter(endpoints, EndpointState::running, scores);
    }

    /** Deciding a pick means the pod had the smallest running batch. */
    @Override
    public PickReason reason() {
        return PickReason.LEAST_LOADED;
    }

    @Override
    public String toString() {
        return TYPE;
    }
}
