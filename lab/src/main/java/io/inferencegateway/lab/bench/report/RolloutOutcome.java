package io.inferencegateway.lab.bench.report;

import java.util.ArrayList;
import java.util.List;

import io.inferencegateway.lab.bench.load.RequestResult;

/**
 * What one run of a rollout showed a client: which version served each request (the response's {@code model}, the
 * rewrite's target), whether the candidate was rolled back or promoted, when, and how much traffic it served first.
 * Requests that failed without naming a model count as the candidate's: in the rollout scenario only its pods fail.
 *
 * @param requests           requests sent for the rewritten model
 * @param errors             of those, not OK
 * @param verdict            {@code rolled back}, {@code promoted}, or {@code undecided} when the run ended first
 * @param candidateServed    requests the candidate answered (or failed) up to the verdict, or in the run if none
 * @param shareBeforeVerdict {@code candidateServed} over every request up to the verdict (or in the run)
 * @param firstCandidateS    simulated seconds from the run start to the candidate's first request; NaN if none
 * @param verdictS           seconds from the run start to the verdict as the client sees it: the candidate's last
 *                           request for a rollback, the first request of the all-candidate tail for a promotion
 * @param shareByWindow      the candidate's share of each {@link #WINDOW_S}-second window of the run
 */
public record RolloutOutcome(String variant, String candidateFault, int requests, int errors, String verdict,
                             int candidateServed, double shareBeforeVerdict, double firstCandidateS, double verdictS,
                             List<Double> shareByWindow) {

    public static final String ROLLED_BACK = "rolled back";
    public static final String PROMOTED = "promoted";
    public static final String UNDECIDED = "undecided";
    /** Width of the windows the share timeline is cut into, simulated seconds. */
    public static final double WINDOW_S = 5;
    /** How long a version must have had the traffic to itself at the end of the run for a verdict. */
    public static final double SETTLED_S = 5;

    public RolloutOutcome {
        shareByWindow = List.copyOf(shareByWindow);
    }

    /**
     * @param served    per request (plan order), the model its response named; null when none did
     */
    public static RolloutOutcome of(String variant, String candidateFault, List<RequestResult> results, String[] served,
                                    String baseline, String candidate) {
        int n = results.size();
        boolean[] onCandidate = new boolean[n];
        boolean[] onBaseline = new boolean[n];
        int errors = 0;
        int firstCandidate = -1;
        int lastCandidate = -1;
        int lastBaseline = -1;
        for (int i = 0; i < n; i++) {
            RequestResult r = results.get(i);
            if (!r.ok()) {
                errors++;
            }
            onCandidate[i] = candidate.equals(served[i]) || (served[i] == null && r.status() >= 500);
            onBaseline[i] = baseline.equals(served[i]);
            if (onCandidate[i]) {
                firstCandidate = firstCandidate < 0 ? i : firstCandidate;
                lastCandidate = i;
            }
            if (onBaseline[i]) {
                lastBaseline = i;
            }
        }
        double end = n == 0 ? 0 : seconds(results.get(n - 1));
        String verdict = UNDECIDED;
        int verdictIndex = n - 1;
        double verdictS = Double.NaN;
        if (lastCandidate >= 0 && lastBaseline > lastCandidate && end - seconds(results.get(lastCandidate)) >= SETTLED_S) {
            verdict = ROLLED_BACK;
            verdictIndex = lastCandidate;
            verdictS = seconds(results.get(lastCandidate));
        } else if (lastCandidate >= 0 && lastBaseline < lastCandidate && lastBaseline + 1 < n
                && end - seconds(results.get(lastBaseline + 1)) >= SETTLED_S) {
            verdict = PROMOTED;
            verdictIndex = lastBaseline + 1;
            verdictS = seconds(results.get(lastBaseline + 1));
        }
        int served0 = 0;
        for (int i = 0; i <= verdictIndex; i++) {
            if (onCandidate[i]) {
                served0++;
            }
        }
        List<Double> windows = new ArrayList<>();
        int[] total = new int[(int) Math.floor(end / WINDOW_S) + 1];
        int[] cand = new int[total.length];
        for (int i = 0; i < n; i++) {
            int w = (int) Math.floor(seconds(results.get(i)) / WINDOW_S);
            total[w]++;
            if (onCandidate[i]) {
                cand[w]++;
            }
        }
        for (int w = 0; w < total.length && n > 0; w++) {
            windows.add(total[w] == 0 ? Double.NaN : (double) cand[w] / total[w]);
        }
        return new RolloutOutcome(variant, candidateFault, n, errors, verdict, served0,
                verdictIndex < 0 ? Double.NaN : (double) served0 / (verdictIndex + 1),
                firstCandidate < 0 ? Double.NaN : seconds(results.get(firstCandidate)), verdictS, windows);
    }

    /** Seconds from the candidate's first request to the verdict; NaN without both. */
    public double timeToVerdictS() {
        return verdictS - firstCandidateS;
    }

    private static double seconds(RequestResult r) {
        return r.intendedNanos() / 1e9;
    }
}
