package io.inferencegateway.scheduling.plugins;

import java.util.List;

import io.inferencegateway.domain.PickReason;
import io.inferencegateway.metrics.ClusterCapacity;
import io.inferencegateway.scheduling.framework.EndpointState;
import io.inferencegateway.scheduling.framework.PluginType;
import io.inferencegateway.scheduling.framework.Scorer;
import io.inferencegateway.scheduling.framework.SchedulingCycle;

/**
 * {@value #TYPE}: at a global tier, prefers the target whose recent requests failed least. Two views are weighed, and
 * the worse one counts: the share of the cluster's own requests that failed, from its summary, and the share of this
 * gateway's requests to it that failed lately (the pool's outlier detection, which sees what the cluster cannot: a
 * network path that drops connections, a provider that answers 5xx). Score: {@code 1 − errors}; a target neither view
 * knows anything about scores 1. Outlier detection ejects targets that fail hard; this scorer steers away from those
 * that fail a little.
 */
public final class ErrorRateScorer extends NamedScorer {

    public static final String TYPE = "error-rate-scorer";
    /** Takes no parameters. */
    public static final PluginType<Scorer> PLUGIN = PluginType.scorer(TYPE, parameters -> new ErrorRateScorer());

    public ErrorRateScorer() {
        super(TYPE, PickReason.FEWEST_ERRORS);
    }

    @Override
    public void score(SchedulingCycle cycle, List<EndpointState> endpoints, double[] scores) {
        for (int i = 0; i < endpoints.size(); i++) {
            scores[i] = 1.0 - errors(endpoints.get(i));
        }
    }

    /** The worse of the summary's and the gateway's own failure share, 0..1; 0 when neither is known. */
    static double errors(EndpointState e) {
        ClusterCapacity c = e.cluster();
        double reported = c == null || !(c.errorRatio() >= 0) ? 0 : Math.min(1, c.errorRatio());
        double seen = e.failureRatio() >= 0 ? Math.min(1, e.failureRatio()) : 0;
        return Math.max(reported, seen);
    }
}
