package io.inferencegateway.scheduling.plugins;

import io.inferencegateway.domain.AdmissionDecision;
import io.inferencegateway.domain.GatewayError;
import io.inferencegateway.domain.LatencyTargets;
import io.inferencegateway.domain.Priority;
import io.inferencegateway.scheduling.framework.Admitter;
import io.inferencegateway.scheduling.framework.EndpointState;
import io.inferencegateway.scheduling.framework.SchedulingCycle;

/**
 * Admits a request with latency targets by the best prediction among its candidates (docs/slo.md), what saturation
 * alone cannot tell: a sheddable request that no pod is predicted to serve in time is refused even when the pool has
 * room ({@code slo_unattainable}); a request that matters more than standard and that a pod is predicted to serve in
 * time goes at once, even while the pods look full or others wait. Anything else, and any request before the pool's
 * predictor predicts, passes to the pool's queue. Registered with the latency predictions it reads.
 */
final class LatencyAdmitter implements Admitter {

    static final LatencyAdmitter INSTANCE = new LatencyAdmitter();

    private LatencyAdmitter() {
    }

    @Override
    public AdmissionDecision admit(SchedulingCycle cycle) {
        LatencyTargets targets = cycle.targets();
        int priority = cycle.request().priority();
        boolean sheddable = Priority.sheddable(priority);
        if (!targets.any() || !(sheddable || priority > Priority.STANDARD)) {
            return AdmissionDecision.PASS;
        }
        EndpointState best = null;
        for (EndpointState s : cycle.states()) {
            double ratio = s.latencyRatio(); // NaN for a stale pod, or before the predictor predicts: never the best
            if (ratio >= 0 && (best == null || ratio < best.latencyRatio())) {
                best = s;
            }
        }
        if (best == null) {
            return AdmissionDecision.PASS;
        }
        boolean meets = best.latencyRatio() <= 1;
        if (sheddable && !meets) {
            return AdmissionDecision.refuse(GatewayError.Dropped.SLO_UNATTAINABLE, explain(best, targets));
        }
        return !sheddable && meets ? AdmissionDecision.ADMIT : AdmissionDecision.PASS;
    }

    /** What a refusal by prediction says: the best pod's predicted latency against the targets. */
    private static String explain(EndpointState best, LatencyTargets targets) {
        StringBuilder sb = new StringBuilder("best predicted on ").append(best.endpoint()).append(": ");
        if (targets.ttftMillis() > 0) {
            sb.append("first token in ").append(Math.round(best.predictedTtftMillis())).append(" ms, target ")
                    .append(targets.ttftMillis()).append(" ms");
        }
        if (targets.tpotMillis() > 0) {
            sb.append(targets.ttftMillis() > 0 ? "; " : "").append(Math.round(best.predictedTpotMillis()))
                    .append(" ms per output token, target ").append(targets.tpotMillis()).append(" ms");
        }
        return sb.toString();
    }

    @Override
    public String toString() {
        return "latency-admitter";
    }
}
