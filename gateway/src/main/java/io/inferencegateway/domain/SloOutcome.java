package io.inferencegateway.domain;

/**
 * Whether a request with {@link LatencyTargets} got them, as its client saw it: the one judgement the SLO counters,
 * the access log's {@code slo_met}, the trace and the fleet page share (docs/observability.md, "Latency targets").
 *
 * <p>Time to first token runs from the request's arrival to its first streamed content, or, for a plain response, to
 * its end (its one "token"); time per output token is (end − first token) / (output tokens − 1) of a stream that
 * reported at least two output tokens, and is not judged otherwise. A request the gateway refused or could not serve
 * (a status of 400 or more, no response, a response that broke off) missed as {@link #REFUSED}: a 429 of flow
 * control is a target not met too. A client that hung up is judged only when it had already waited past its TTFT
 * target; leaving earlier says nothing about the fleet.
 */
public enum SloOutcome {
    MET("met"),
    /** The first token came later than the TTFT target. */
    TTFT("ttft"),
    /** The first token was in time, the tokens after it were slower than the TPOT target. */
    TPOT("tpot"),
    /** Refused or failed by the gateway or the model server. */
    REFUSED("refused");

    private final String label;

    SloOutcome(String label) {
        this.label = label;
    }

    /** The label value: met, or the {@code kind} of a miss. */
    public String label() {
        return label;
    }

    public boolean met() {
        return this == MET;
    }

    /**
     * How an ended request fared against its targets; null when it had none, reached no pool or was not judged. Read
     * it as {@link RequestRecord#slo()}, which judges once.
     */
    static SloOutcome of(RequestRecord r) {
        LatencyTargets targets = r.targets();
        if (r.pool() == null || !targets.any() || r.ending() == null) {
            return null;
        }
        long start = r.startNanos();
        long first = r.stream() ? r.firstTokenNanos() : 0; // 0: none, or a plain body whose end is its first token
        long ttftTarget = targets.ttftMillis() * 1_000_000L;
        if (r.ending() == RequestRecord.Ending.CLIENT_GONE) {
            long waited = (first != 0 ? first : r.endNanos()) - start;
            return ttftTarget > 0 && waited > ttftTarget ? TTFT : null;
        }
        boolean served = r.ending() == RequestRecord.Ending.COMPLETED && r.status() >= 200 && r.status() < 300;
        if (!served) {
            return REFUSED;
        }
        long end = r.endNanos();
        if (ttftTarget > 0 && (first != 0 ? first : end) - start > ttftTarget) {
            return TTFT;
        }
        if (targets.tpotMillis() > 0 && first != 0 && r.outputTokens() >= 2
                && (end - first) / (r.outputTokens() - 1) > targets.tpotMillis() * 1_000_000L) {
            return TPOT;
        }
        return MET;
    }
}
