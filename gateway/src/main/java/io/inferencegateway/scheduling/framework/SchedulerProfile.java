package io.inferencegateway.scheduling.framework;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

import io.inferencegateway.domain.GatewayError;
import io.inferencegateway.domain.PickReason;

/**
 * One scheduling pipeline, named: filters in order, then weighted scorers, then a picker, run on a request's snapshot
 * ({@link SchedulingCycle}). A pool's {@link ProfileHandler} says which profiles run for a request. The profile owns
 * the arithmetic so plugins stay simple: it applies fail open, clamps every score to [0,1] (NaN counts as 0),
 * multiplies by the weight and sums.
 */
public final class SchedulerProfile {

    /** The name of a pool's profile when its config gives none. */
    public static final String DEFAULT_NAME = "default";

    /** A scorer with the weight the profile gives it; weight 0 means the scorer is not in the profile. */
    public record WeightedScorer(Scorer scorer, double weight) {
        public WeightedScorer {
            Objects.requireNonNull(scorer, "scorer");
            if (!(weight > 0) || Double.isInfinite(weight)) {
                throw new IllegalArgumentException("weight must be positive and finite, got " + weight);
            }
        }
    }

    /** Score differences below this are rounding, not preference (as in the max-score picker). */
    private static final double TIE = 1e-9;

    private final String name;
    private final List<Filter> filters;
    private final List<WeightedScorer> scorers;
    private final Picker picker;

    private SchedulerProfile(Builder b) {
        this.name = b.name;
        this.filters = List.copyOf(b.filters);
        this.scorers = List.copyOf(b.scorers);
        this.picker = Objects.requireNonNull(b.picker, "a profile needs a picker");
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Runs filters, scorers and the picker over {@code candidates} (never empty) and returns the chosen one. Leaves the
     * decision's explanation in the cycle until the next profile runs ({@link SchedulingCycle#reason()}, its expected
     * cached tokens and filter outcomes; {@link #result} gathers them). Allocates nothing. The reason:
     * <ul>
     * <li>a filter said its narrowing explains the pick ({@link SchedulingCycle#narrowedBecause}): that reason;</li>
     * <li>one candidate left after filtering: {@link PickReason#ONLY_CANDIDATE}, or what the filter that removed
     * the others said its narrowing means;</li>
     * <li>what the picker said decided its pick ({@link SchedulingCycle#pickedBecause}), when it said so;</li>
     * <li>otherwise the {@link Scorer#reason()} of the scorer whose weighted score put the winner furthest ahead
     * of the best other candidate;</li>
     * <li>when no scorer put it ahead (every candidate scored the same), {@link PickReason#LEAST_LOADED}: it
     * was one of the equally loaded; {@link PickReason#POLICY} when the picker took a candidate below the
     * best total (a weighted random draw) or the profile has no scorers.</li>
     * </ul>
     * The cached tokens: what the scorers expect of the chosen endpoint, or what the producers counted there, the
     * larger.
     *
     * @throws GatewayError the {@link Filter#refusal} of a filter that kept no candidate
     */
    public EndpointState run(SchedulingCycle cycle, List<EndpointState> candidates) {
        cycle.startProfile();
        List<EndpointState> current = candidates;
        PickReason narrowed = null;
        for (int j = 0; j < filters.size(); j++) { // indexed: no iterator per decision
            Filter f = filters.get(j);
            cycle.filterStarts(f);
            List<EndpointState> kept = f.filter(cycle, current);
            if (kept.isEmpty()) {
                GatewayError refusal = f.refusal(cycle);
                if (refusal != null) {
                    throw refusal; // no fail open: the request may go nowhere
                }
            }
            boolean applied = !kept.isEmpty(); // fail open: a filter never empties the list
            PickReason meaning = cycle.filterEnds(applied, applied ? current.size() - kept.size() : 0);
            if (applied) {
                if (kept.size() < current.size()) {
                    narrowed = meaning;
                }
                current = kept;
            }
        }
        int n = current.size();
        int k = scorers.size();
        double[] totals = cycle.totals(n);
        Arrays.fill(totals, 0, n, 0.0);
        double[] scores = cycle.scores(n);
        double[] weighted = cycle.weighted(k * n);
        double[] rows = cycle.rowBests(k); // per scorer: its best weighted score, where, and the second best
        int[] cached = cycle.cachedTokens(n);
        for (int s = 0; s < k; s++) {
            WeightedScorer ws = scorers.get(s);
            Arrays.fill(scores, 0, n, 0.0);
            ws.scorer().score(cycle, current, scores);
            double best = Double.NEGATIVE_INFINITY;
            double second = Double.NEGATIVE_INFINITY;
            int at = -1;
            for (int i = 0; i < n; i++) {
                double w = ws.weight() * clamp(scores[i]);
                weighted[s * n + i] = w;
                totals[i] += w;
                if (w > best) {
                    second = best;
                    best = w;
                    at = i;
                } else if (w > second) {
                    second = w;
                }
            }
            rows[3 * s] = best;
            rows[3 * s + 1] = at;
            rows[3 * s + 2] = second;
        }
        EndpointState chosen = picker.pick(cycle, current, totals);
        int c = indexOf(current, chosen);
        PickReason why = cycle.overridingReason() != null ? cycle.overridingReason()
                : n == 1 ? (narrowed != null ? narrowed : PickReason.ONLY_CANDIDATE)
                : cycle.pickerReason() != null ? cycle.pickerReason()
                : decisive(cycle, weighted, rows, totals, n, c);
        cycle.decided(why, Math.max(c < 0 ? 0 : cached[c], chosen.cachedTokens()));
        return chosen;
    }

    /** What this profile's {@link #run} chose in {@code cycle}, and why, as a result that outlives the next run. */
    public ProfileResult result(SchedulingCycle cycle, EndpointState chosen) {
        return new ProfileResult(name, chosen, cycle.reason(), cycle.expectedCachedTokens());
    }

    /**
     * The reason of the scorer that put candidate {@code c} furthest ahead of the best other one; {@code rows} holds
     * each scorer's best weighted score, its position and the second best, so the best other is one of those two.
     */
    private PickReason decisive(SchedulingCycle cycle, double[] weighted, double[] rows, double[] totals, int n, int c) {
        if (c < 0 || scorers.isEmpty()) {
            return PickReason.POLICY;
        }
        int best = -1;
        double bestLead = TIE;
        for (int s = 0; s < scorers.size(); s++) {
            double other = (int) rows[3 * s + 1] == c ? rows[3 * s + 2] : rows[3 * s];
            double lead = weighted[s * n + c] - other;
            if (lead > bestLead) {
                bestLead = lead;
                best = s;
            }
        }
        if (best >= 0) {
            return scorers.get(best).scorer().reason(cycle);
        }
        double max = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < n; i++) {
            max = Math.max(max, totals[i]);
        }
        return totals[c] >= max - TIE ? PickReason.LEAST_LOADED : PickReason.POLICY;
    }

    private static int indexOf(List<EndpointState> states, EndpointState chosen) {
        for (int i = 0; i < states.size(); i++) {
            if (states.get(i) == chosen) {
                return i;
            }
        }
        return -1;
    }

    static double clamp(double score) {
        if (!(score > 0)) { // also NaN
            return 0;
        }
        return Math.min(score, 1.0);
    }

    public String name() {
        return name;
    }

    public List<Filter> filters() {
        return filters;
    }

    public List<WeightedScorer> scorers() {
        return scorers;
    }

    public Picker picker() {
        return picker;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("filters=").append(filters).append(" scorers=[");
        for (int i = 0; i < scorers.size(); i++) {
            WeightedScorer ws = scorers.get(i);
            sb.append(i == 0 ? "" : ", ").append(ws.scorer()).append('×').append(formatWeight(ws.weight()));
        }
        return sb.append("] picker=").append(picker).toString();
    }

    private static String formatWeight(double w) {
        return w == Math.rint(w) ? Long.toString((long) w) : Double.toString(w);
    }

    public static final class Builder {
        private final List<Filter> filters = new ArrayList<>();
        private final List<WeightedScorer> scorers = new ArrayList<>();
        private Picker picker;
        private String name = DEFAULT_NAME;

        public Builder name(String n) {
            this.name = Objects.requireNonNull(n);
            return this;
        }

        public Builder filter(Filter f) {
            filters.add(Objects.requireNonNull(f));
            return this;
        }

        /** Adds the scorer when its weight is positive; weight 0 leaves it out (it then costs nothing). */
        public Builder scorer(Scorer s, double weight) {
            if (weight < 0 || Double.isNaN(weight)) {
                throw new IllegalArgumentException("weight must not be negative, got " + weight);
            }
            if (weight > 0) {
                scorers.add(new WeightedScorer(s, weight));
            }
            return this;
        }

        public Builder picker(Picker p) {
            this.picker = p;
            return this;
        }

        public SchedulerProfile build() {
            return new SchedulerProfile(this);
        }
    }
}
