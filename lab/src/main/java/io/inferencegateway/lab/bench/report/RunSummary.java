package io.inferencegateway.lab.bench.report;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import io.inferencegateway.lab.bench.load.LongList;
import io.inferencegateway.lab.bench.load.Outcome;
import io.inferencegateway.lab.bench.load.RequestResult;

/**
 * The numbers a run is judged by. Latencies cover successful requests only (as vLLM's own benchmark
 * does); errors are counted beside them, so a policy that sheds load shows it.
 *
 * @param ttft                  time to first token
 * @param itl                   inter-token latency, over every gap of every successful stream
 * @param e2e                   end-to-end latency
 * @param outputTokensPerSecond output tokens of successful requests over the span from the first
 *                              intended send to the last response end (simulated seconds)
 * @param sendLag               how late the generator wrote requests; near zero when it kept up
 * @param refused               requests the gateway refused with 429 (flow control); not counted in {@code errors}
 * @param classes               per priority class, in the order first seen; empty when no request had a priority
 */
public record RunSummary(int requests, int ok, int errors, Map<Outcome, Integer> outcomes, LatencySummary ttft,
                         LatencySummary itl, LatencySummary e2e, double outputTokensPerSecond, double spanSeconds,
                         LatencySummary sendLag, int refused, List<ClassSummary> classes) {

    public RunSummary {
        classes = List.copyOf(classes);
    }

    public static RunSummary of(List<RequestResult> results) {
        Map<Outcome, Integer> outcomes = new EnumMap<>(Outcome.class);
        LongList ttft = new LongList();
        LongList itl = new LongList();
        LongList e2e = new LongList();
        LongList lag = new LongList();
        long tokens = 0;
        long firstSend = Long.MAX_VALUE;
        long lastEnd = Long.MIN_VALUE;
        int ok = 0;
        int refused = 0;
        for (RequestResult r : results) {
            outcomes.merge(r.outcome(), 1, Integer::sum);
            if (r.refused()) {
                refused++;
            }
            if (r.sendLagNanos() >= 0) {
                lag.add(r.sendLagNanos());
            }
            firstSend = Math.min(firstSend, r.intendedNanos());
            if (!r.ok()) {
                continue;
            }
            ok++;
            ttft.add(r.ttftNanos());
            itl.addAll(r.itlNanos());
            e2e.add(r.e2eNanos());
            tokens += r.outputTokens();
            lastEnd = Math.max(lastEnd, r.intendedNanos() + r.e2eNanos());
        }
        double span = ok == 0 ? 0 : (lastEnd - firstSend) / 1e9;
        return new RunSummary(results.size(), ok, results.size() - ok - refused, outcomes,
                LatencySummary.of(Distribution.of(ttft.toArray())), LatencySummary.of(Distribution.of(itl.toArray())),
                LatencySummary.of(Distribution.of(e2e.toArray())), span > 0 ? tokens / span : 0, span,
                LatencySummary.of(Distribution.of(lag.toArray())), refused, ClassSummary.of(results));
    }

    /** TTFT samples of successful requests, for CDF charts. */
    public static Distribution ttftOf(List<RequestResult> results) {
        return Distribution.of(results.stream().filter(RequestResult::ok).mapToLong(RequestResult::ttftNanos).toArray());
    }
}
