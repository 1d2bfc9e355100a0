package io.inferencegateway.lab.bench.report;

import io.inferencegateway.lab.bench.load.RequestResult;
import io.inferencegateway.lab.bench.workload.SloClass;

/** How one request fared against the latency targets it was sent with. */
public enum SloVerdict {
    /** Served, with TTFT and (where set) TPOT at or under their targets. */
    MET,
    /** Served, but the first token came after the TTFT target. */
    TTFT_MISSED,
    /** Served with the first token in time, but the tokens after it came slower than the TPOT target. */
    TPOT_MISSED,
    /** Refused (429) or failed: a client with a deadline got nothing, so the targets are missed. */
    NOT_SERVED,
    /** Sent without targets: not judged. */
    NO_TARGETS;

    /**
     * Judged in simulated time, the time the targets were planned in. A TPOT target is met trivially by a response
     * of fewer than two tokens, which has no time between tokens.
     */
    public static SloVerdict of(RequestResult r) {
        SloClass slo = r.slo();
        if (slo.isNone()) {
            return NO_TARGETS;
        }
        if (!r.ok()) {
            return NOT_SERVED;
        }
        if (slo.hasTtftTarget() && r.ttftNanos() > slo.ttft().toNanos()) {
            return TTFT_MISSED;
        }
        if (slo.hasTpotTarget() && r.tpotNanos() > slo.tpot().toNanos()) {
            return TPOT_MISSED;
        }
        return MET;
    }
}
