package io.inferencegateway.scheduling.plugins;

import java.util.List;

import io.inferencegateway.metrics.ClusterCapacity;
import io.inferencegateway.scheduling.framework.CandidateFilter;
import io.inferencegateway.scheduling.framework.EndpointState;
import io.inferencegateway.domain.GatewayError;
import io.inferencegateway.scheduling.framework.Filter;
import io.inferencegateway.scheduling.framework.PluginType;
import io.inferencegateway.scheduling.framework.SchedulingCycle;

/**
 * {@value #TYPE}: at a global tier, removes the clusters that cannot be trusted with a request now: those whose capacity
 * summary is stale or was never read (older than the pool's {@code metricsStalenessThreshold}: a cluster that stopped
 * answering its poll is often a cluster in trouble), and those with no ready pod. Clusters the pool's outlier detection
 * ejected never reach the scheduler (pool/OutlierDetector.java). Providers publish no summary and pass; the overflow
 * filter decides when they may serve.
 *
 * <p>When no candidate is left it keeps the clusters that may still answer: those never read yet (a tier just
 * started, or a poll it cannot make while requests go through) and those with no ready pod (their gateway answers, if
 * only with its own error). A cluster whose summary was read and has since gone stale is <em>lost</em> (a partition, a
 * dead gateway): a request sent there could wait its whole route timeout for nothing, so when only lost clusters are
 * left the request is refused at once, 503 naming the pool ({@link Filter#refusal}).
 */
public final class TargetHealthFilter implements CandidateFilter {

    public static final String TYPE = "target-health-filter";
    /** Outcome of a cluster removed because its summary is stale or was never read. */
    public static final String STALE = "stale";
    /** Outcome of a cluster removed because its summary counts no ready pod. */
    public static final String NO_READY_PODS = "no_ready_pods";
    /** Takes no parameters. */
    public static final PluginType<Filter> PLUGIN = PluginType.filter(TYPE, parameters -> new TargetHealthFilter());

    @Override
    public String removal(SchedulingCycle cycle, EndpointState e) {
        return !unhealthy(e) ? null : e.fresh() && e.cluster() != null ? NO_READY_PODS : STALE;
    }

    @Override
    public List<EndpointState> filter(SchedulingCycle cycle, List<EndpointState> endpoints) {
        List<EndpointState> kept = CandidateFilter.super.filter(cycle, endpoints);
        if (kept.isEmpty()) { // none healthy: those that may still answer, rather than nothing
            for (int i = 0; i < endpoints.size(); i++) {
                if (!lost(endpoints.get(i))) {
                    kept.add(endpoints.get(i));
                }
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

    /** A cluster whose summary was read once and has gone stale since. */
    private static boolean lost(EndpointState e) {
        return TargetFacts.cluster(e) && !e.fresh() && e.metrics() != null;
    }

    @Override
    public GatewayError refusal(SchedulingCycle cycle) {
        return GatewayError.noAnsweringCluster(cycle.pool());
    }

    @Override
    public String toString() {
        return TYPE;
    }
}
