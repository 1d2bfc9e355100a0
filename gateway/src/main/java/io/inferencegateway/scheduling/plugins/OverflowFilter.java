package io.inferencegateway.scheduling.plugins;

import java.util.List;

import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.domain.LatencyTargets;
import io.inferencegateway.domain.PickReason;
import io.inferencegateway.domain.Priority;
import io.inferencegateway.metrics.ClusterCapacity;
import io.inferencegateway.scheduling.framework.EndpointState;
import io.inferencegateway.scheduling.framework.Filter;
import io.inferencegateway.scheduling.framework.PluginType;
import io.inferencegateway.scheduling.framework.SchedulingCycle;

/**
 * {@value #TYPE}: at a global tier, keeps a request on the clusters that can take it, and says where among them:
 * <ol>
 * <li>A cluster <em>can take</em> a request when its summary is fresh and it is not saturated: fewer than
 * {@code saturationThreshold} of its pods saturated, fewer than {@code queueDepthThreshold} requests queued per ready
 * pod (the tier's own sends since the poll included), KV use below {@code kvCacheThreshold}.</li>
 * <li>While one can, external providers are removed: they are overflow and failover only. When none can, the providers
 * left are kept alone (the pick's reason is then {@code overflow}); with no provider left, every cluster stays and the
 * scorers pick the least full.</li>
 * <li>A standard request (priority 0) keeps the clusters of the pool's home region that can take it and are not
 * expected to miss its first-token target (predicted time to first token, else the recent one, plus the round trip);
 * only when there is none does it spill to the other regions' clusters that can take it, those expected in time when
 * any is. Critical and sheddable requests may use any region (the priority scorer weighs their speed and cost).</li>
 * </ol>
 * Pods (no target) pass untouched.
 */
public final class OverflowFilter implements Filter {

    public static final String TYPE = "overflow-filter";
    /** Outcome of a cluster removed because it is saturated (or its summary stale) while another can take the request. */
    public static final String SATURATED = "saturated";
    /** Outcome of a provider removed because a cluster can take the request. */
    public static final String OVERFLOW_ONLY = "overflow_only";
    /** Outcome of a cluster outside the home region, removed for a standard request the home region can serve. */
    public static final String AWAY_FROM_HOME = "away_from_home";
    /** Outcome of a home-region cluster expected to miss the request's first-token target while another is not. */
    public static final String PREDICTED_LATE = "predicted_late";
    public static final double DEFAULT_SATURATION = 0.8;

    /**
     * Parameters: {@code saturationThreshold} (share of a cluster's pods saturated, 0.8), {@code queueDepthThreshold}
     * (requests queued per ready pod, 5, as the saturation filter's per pod) and {@code kvCacheThreshold} (0.8).
     */
    public static final PluginType<Filter> PLUGIN = PluginType.filter(TYPE, parameters -> new OverflowFilter(
            parameters.fraction("saturationThreshold", DEFAULT_SATURATION),
            parameters.integer("queueDepthThreshold", SaturationFilter.DEFAULT_WAITING_LIMIT, 1, Integer.MAX_VALUE),
            parameters.fraction("kvCacheThreshold", SaturationFilter.DEFAULT_KV_LIMIT)));

    private final double saturationLimit;
    private final int queuePerPodLimit;
    private final double kvLimit;

    public OverflowFilter(double saturationLimit, int queuePerPodLimit, double kvLimit) {
        this.saturationLimit = saturationLimit;
        this.queuePerPodLimit = queuePerPodLimit;
        this.kvLimit = kvLimit;
    }

    /** Whether a cluster can take another request: fresh, and neither its pods, its queues nor its KV cache full. */
    boolean canTake(EndpointState e) {
        ClusterCapacity c = e.cluster();
        return e.fresh() && c != null && !(c.saturation() >= saturationLimit)
                && TargetFacts.queuePerPod(e) < queuePerPodLimit && !(e.kvUsage() >= kvLimit);
    }

    @Override
    public List<EndpointState> filter(SchedulingCycle cycle, List<EndpointState> endpoints) {
        int n = endpoints.size();
        int able = 0;
        int providers = 0;
        for (int i = 0; i < n; i++) {
            EndpointState e = endpoints.get(i);
            if (TargetFacts.provider(e)) {
                providers++;
            } else if (TargetFacts.cluster(e) && canTake(e)) {
                able++;
            }
        }
        if (able == 0 && providers == 0) {
            return endpoints; // pods, or clusters all full with nowhere to overflow: the scorers pick the least full
        }
        if (able == 0) { // overflow: the providers alone
            List<EndpointState> kept = cycle.keptList(endpoints);
            for (int i = 0; i < n; i++) {
                EndpointState e = endpoints.get(i);
                if (!TargetFacts.cluster(e)) {
                    kept.add(e);
                }
            }
            cycle.removed(SATURATED, n - kept.size());
            cycle.narrowedBecause(PickReason.OVERFLOW);
            return kept;
        }
        InferenceRequest request = cycle.request();
        String home = cycle.homeRegion();
        boolean standard = home != null && request.priority() == Priority.STANDARD;
        boolean stayHome = standard && canServe(endpoints, home, cycle.targets());
        boolean dropLate = standard && (stayHome || canServe(endpoints, null, cycle.targets()));
        List<EndpointState> kept = cycle.keptList(endpoints);
        for (int i = 0; i < n; i++) {
            EndpointState e = endpoints.get(i);
            if (!TargetFacts.cluster(e)) {
                if (TargetFacts.provider(e)) {
                    cycle.removed(OVERFLOW_ONLY, 1);
                } else {
                    kept.add(e); // a pod among targets: not this filter's to judge
                }
            } else if (!canTake(e)) {
                cycle.removed(SATURATED, 1);
            } else if (stayHome && !home.equals(e.target().region())) {
                cycle.removed(AWAY_FROM_HOME, 1, PickReason.HOME_REGION);
            } else if (dropLate && TargetFacts.late(e, cycle.targets())) {
                cycle.removed(PREDICTED_LATE, 1);
            } else {
                kept.add(e);
            }
        }
        return kept.size() == n ? endpoints : kept;
    }

    /**
     * Whether a cluster (of {@code region}, or of any when null) can take the request and is not expected to miss its
     * first-token target.
     */
    private boolean canServe(List<EndpointState> endpoints, String region, LatencyTargets targets) {
        for (int i = 0; i < endpoints.size(); i++) {
            EndpointState e = endpoints.get(i);
            if (TargetFacts.cluster(e) && (region == null || region.equals(e.target().region())) && canTake(e)
                    && !TargetFacts.late(e, targets)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return TYPE;
    }
}
