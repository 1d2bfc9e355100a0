package io.inferencegateway.scheduling.plugins;

import java.util.List;

import io.inferencegateway.metrics.ClusterCapacity;
import io.inferencegateway.scheduling.framework.EndpointState;
import io.inferencegateway.scheduling.framework.Filter;
import io.inferencegateway.scheduling.framework.PluginType;
import io.inferencegateway.scheduling.framework.SchedulingCycle;

/**
 * {@value #TYPE}: at a global tier, removes the clusters that cannot be trusted with a request now: those whose capacity
 * summary is stale or was never read (older than the pool's {@code metricsStalenessThreshold}: a cluster that stopped
 * answering its poll is often a cluster in trouble), and those with no ready pod. Clusters the pool's outlier detection
 * ejected never reach the scheduler (pool/OutlierDetector.java). Providers publish no summary and pass; the overflow
 * filter decides when they may serve. Fails open like any filter: when no cluster is healthy and no provider is left,
 * every cluster stays and the scorers pick the least bad.
 */
public final class TargetHealthFilter implements Filter {

    public static final String TYPE = "target-health-filter";
    /** Outcome of a cluster removed because its summary is stale or was never read. */
    public static final String STALE = "stale";
    /** Outcome of a cluster removed because its summary counts no ready pod. */
    public static final String NO_READY_PODS = "no_ready_pods";
    /** Takes no parameters. */
    public static final PluginType<Filter> PLUGIN = PluginType.filter(TYPE, parameters -> new TargetHealthFilter());

    @Override
    public List<EndpointState> filter(SchedulingCycle cycle, List<EndpointState> endpoints) {
        int n = endpoints.size();
        int first = 0;
        while (first < n && !unhealthy(endpoints.get(first))) {
            first++;
        }
        if (first == n) {
            return endpoints;
        }
        List<EndpointState> kept = cycle.keptList(endpoints);
        for (int i = 0; i < n; i++) {
            EndpointState e = endpoints.get(i);
            if (i < first || (i > first && !unhealthy(e))) {
                kept.add(e);
            } else {
                cycle.removed(e.fresh() && e.cluster() != null ? NO_READY_PODS : STALE, 1);
            }
        }
        return kept;
    }

    private static boolean unhealthy(EndpointState e) {
        if (!TargetFacts.cluster(e)) {
            return false;
        }
        ClusterCapacity c = e.cluster();
        return !e.fresh() || c == null || c.readyPods() <= 0;
    }

    @Override
    public String toString() {
        return TYPE;
    }
}
