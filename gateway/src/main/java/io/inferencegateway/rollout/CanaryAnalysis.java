package io.inferencegateway.rollout;

import java.util.Locale;

import io.inferencegateway.config.RolloutConfig;

/**
 * The comparison a rollout's step must pass: the candidate's numbers against the baseline's, under the configured
 * margins. Pure: the same tallies give the same finding on every replica.
 */
final class CanaryAnalysis {

    /** What the numbers say. */
    enum Judgement {
        /** A side has fewer than minSamples requests: nothing can be said yet. */
        WAIT,
        /** The candidate is within every margin. */
        PASS,
        /** The candidate breached a margin: roll back. */
        BREACH
    }

    /** @param reason for a breach, which margin and by how much; else a short note */
    record Finding(Judgement kind, String reason) {
    }

    private CanaryAnalysis() {
    }

    /**
     * Judges one step. Rates are compared as soon as each side has {@code minSamples} requests; a latency p90 when
     * each side also has {@code minSamples} samples of it (TPOT needs streams, so a fleet without streams is not
     * judged on it).
     */
    static Finding judge(RolloutConfig.Analysis a, Tally baseline, Tally candidate) {
        if (baseline.requests() < a.minSamples() || candidate.requests() < a.minSamples()) {
            return new Finding(Judgement.WAIT, String.format(Locale.ROOT, "waiting for %d requests a side (baseline %d,"
                    + " candidate %d)", a.minSamples(), baseline.requests(), candidate.requests()));
        }
        if (candidate.errorRate() > baseline.errorRate() + a.errorRate()) {
            return new Finding(Judgement.BREACH, String.format(Locale.ROOT,
                    "error rate %.2f%% > baseline %.2f%% + %.2f points", 100 * candidate.errorRate(),
                    100 * baseline.errorRate(), 100 * a.errorRate()));
        }
        if (candidate.refusalRate() > baseline.refusalRate() + a.refusalRate()) {
            return new Finding(Judgement.BREACH, String.format(Locale.ROOT,
                    "refusal rate %.2f%% > baseline %.2f%% + %.2f points", 100 * candidate.refusalRate(),
                    100 * baseline.refusalRate(), 100 * a.refusalRate()));
        }
        if (baseline.ttftSamples() >= a.minSamples() && candidate.ttftSamples() >= a.minSamples()
                && candidate.ttftP90() > a.ttftP90() * baseline.ttftP90()) {
            return new Finding(Judgement.BREACH, String.format(Locale.ROOT, "TTFT p90 %s > %.2f x baseline %s",
                    Tally.seconds(candidate.ttftP90()), a.ttftP90(), Tally.seconds(baseline.ttftP90())));
        }
        if (baseline.tpotSamples() >= a.minSamples() && candidate.tpotSamples() >= a.minSamples()
                && candidate.tpotP90() > a.tpotP90() * baseline.tpotP90()) {
            return new Finding(Judgement.BREACH, String.format(Locale.ROOT, "TPOT p90 %s > %.2f x baseline %s",
                    Tally.seconds(candidate.tpotP90()), a.tpotP90(), Tally.seconds(baseline.tpotP90())));
        }
        return new Finding(Judgement.PASS, "within every margin");
    }
}
