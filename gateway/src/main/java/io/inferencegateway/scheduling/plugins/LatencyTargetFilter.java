package io.inferencegateway.scheduling.plugins;

import java.util.List;

import io.inferencegateway.domain.PickReason;
import io.inferencegateway.scheduling.framework.EndpointState;
import io.inferencegateway.scheduling.framework.Filter;
import io.inferencegateway.scheduling.framework.PluginType;
import io.inferencegateway.scheduling.framework.SchedulingCycle;

/**
 * {@value #TYPE}: keeps a request with latency targets on the pods predicted to meet them
 * ({@code x-slo-ttft-ms}, {@code x-slo-tpot-ms}, or the config's; docs/slo.md). When no pod is, it keeps the one
 * predicted to come closest: the request is served as well as the pool can (flow control has already refused or
 * held the requests whose priority says they should not be served late). A request without targets, or before the
 * pool's predictor has learned enough, passes untouched, as does a pod without a prediction (stale metrics).
 */
public final class LatencyTargetFilter implements Filter {

    public static final String TYPE = "latency-target-filter";
    /** Outcome of a pod removed because it is predicted to miss the request's targets. */
    public static final String PREDICTED_LATE = "predicted_late";
    /** Takes no parameters; brings its pool's latency predictions and admission by them. */
    public static final PluginType<Filter> PLUGIN = PluginType.filter(TYPE, parameters -> {
        LatencyPredictions.register(parameters.pool());
        return new LatencyTargetFilter();
    });

    @Override
    public List<EndpointState> filter(SchedulingCycle cycle, List<EndpointState> endpoints) {
        int n = endpoints.size();
        int late = 0;
        EndpointState closest = null;
        for (int i = 0; i < n; i++) {
            EndpointState e = endpoints.get(i);
            double ratio = e.latencyRatio();
            if (ratio > 1) {
                late++;
                if (closest == null || ratio < closest.latencyRatio()) {
                    closest = e;
                }
            }
        }
        if (late == 0) {
            return endpoints; // no targets, no predictions, or every pod in time: no copy
        }
        List<EndpointState> kept = cycle.keptList(endpoints);
        for (int i = 0; i < n; i++) {
            EndpointState e = endpoints.get(i);
            if (!(e.latencyRatio() > 1)) {
                kept.add(e);
            }
        }
        if (kept.isEmpty()) {
            kept.add(closest);
            late--;
        }
        cycle.removed(PREDICTED_LATE, late, PickReason.LATENCY_TARGET);
        return kept;
    }

    @Override
    public String toString() {
        return TYPE;
    }
}
