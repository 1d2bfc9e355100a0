package io.inferencegateway.observability;

import java.util.List;

import io.inferencegateway.rollout.RolloutView;
import io.inferencegateway.rollout.Tally;

/** The fleet page's rollout rows (docs/rollouts.md): each rollout's state, step, share and both sides' numbers. */
final class RolloutRows {

    private RolloutRows() {
    }

    /**
     * One side's numbers in the current step, as of the last analysis (the fleet's, with Redis); rates and p90s null
     * without samples.
     */
    record Side(String model, long requests, Double errorRate, Double refusalRate, Double ttftP90Ms,
            Double tpotP90Ms) {
    }

    /** One rollout; {@code step} counts from 1 (0 before its progress was read). */
    record RolloutRow(String name, String state, int step, int steps, int percent, Side baseline, Side candidate,
            String finding, String reason, boolean shared, boolean storeDown) {
    }

    static List<RolloutRow> of(List<RolloutView> views) {
        return views.stream().map(v -> new RolloutRow(v.name(), v.state(), v.step(), v.steps(), v.percent(),
                side(v.baselineModel(), v.baseline()), side(v.candidateModel(), v.candidate()), v.finding(),
                v.reason(), v.shared(), v.storeDown())).toList();
    }

    private static Side side(String model, Tally t) {
        boolean any = t.requests() > 0;
        return new Side(model, t.requests(), any ? t.errorRate() : null, any ? t.refusalRate() : null,
                millis(t.ttftP90()), millis(t.tpotP90()));
    }

    private static Double millis(double seconds) {
        return Double.isNaN(seconds) ? null : Math.round(seconds * 100_000) / 100.0;
    }
}
