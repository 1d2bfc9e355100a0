package io.inferencegateway.scheduling.plugins;

import io.inferencegateway.config.TargetConfig;
import io.inferencegateway.domain.GatewayError;
import io.inferencegateway.domain.Residency;
import io.inferencegateway.scheduling.framework.CandidateFilter;
import io.inferencegateway.scheduling.framework.EndpointState;
import io.inferencegateway.scheduling.framework.Filter;
import io.inferencegateway.scheduling.framework.PluginType;
import io.inferencegateway.scheduling.framework.SchedulingCycle;

/**
 * {@value #TYPE}: at a global tier, keeps the clusters and providers the request's tenant may use: those in the regions
 * its data-residency pin names (any region without a pin), and providers only when the tenant is not barred from them.
 * A rule, not a preference: when it keeps nobody the request is refused (503, naming the pin) instead of being sent
 * where it must not go. Pods (no target) and requests without a pin pass untouched.
 */
public final class ResidencyFilter implements CandidateFilter {

    public static final String TYPE = "residency-filter";
    /** Outcome of a target removed because the tenant's pin forbids it. */
    public static final String FORBIDDEN = "residency";
    /** Takes no parameters. */
    public static final PluginType<Filter> PLUGIN = PluginType.filter(TYPE,
            parameters -> new ResidencyFilter());

    @Override
    public String removal(SchedulingCycle cycle, EndpointState e) {
        return allowed(e, cycle.request().residency()) ? null : FORBIDDEN;
    }

    private static boolean allowed(EndpointState e, Residency residency) {
        TargetConfig t = e.target();
        return t == null || residency.allows(t.region(), t.provider());
    }

    @Override
    public GatewayError refusal(SchedulingCycle cycle) {
        return GatewayError.noAllowedTarget(cycle.pool(), cycle.request().residency());
    }

    @Override
    public String toString() {
        return TYPE;
    }
}
