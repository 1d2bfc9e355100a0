package io.inferencegateway.lab.bench.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

import org.junit.jupiter.api.Test;

import io.inferencegateway.lab.bench.load.Outcome;
import io.inferencegateway.lab.bench.load.RequestResult;

/**
 * The rollout report's reading of a run, on request sequences made by hand in place of a gateway with a rollout: one
 * request every 10 ms (simulated) for 60 s, each served by the version a function of its index names.
 */
class RolloutOutcomeTest {

    private static final int N = 6000;
    private static final long TEN_MS = 10_000_000L;

    private record Run(List<RequestResult> results, String[] served) {
    }

    /** {@code version} gives "v1", "v2", or "500" for a request the candidate failed. */
    private static Run run(IntFunction<String> version) {
        List<RequestResult> results = new ArrayList<>();
        String[] served = new String[N];
        for (int i = 0; i < N; i++) {
            String v = version.apply(i);
            boolean failed = v.equals("500");
            results.add(new RequestResult(i, "chat", "unique", "", 100, 8, i * TEN_MS, 0,
                    failed ? Outcome.HTTP_ERROR : Outcome.OK, failed ? 500 : 200, failed ? "HTTP 500" : "", failed ? -1 : 1,
                    new long[0], failed ? -1 : 2, 8, 8, true));
            served[i] = failed ? null : v;
        }
        return new Run(results, served);
    }

    @Test
    void aCandidateThatStopsGettingTrafficWasRolledBackAtItsLastRequest() {
        // every 100th request goes to the candidate from 2 s, the last at 20 s; every other of its requests fails
        Run r = run(i -> i >= 200 && i <= 2000 && i % 100 == 0 ? (i % 200 == 0 ? "500" : "v2") : "v1");
        RolloutOutcome o = RolloutOutcome.of("errors", "fails", r.results(), r.served(), "v1", "v2");
        assertThat(o.verdict()).isEqualTo(RolloutOutcome.ROLLED_BACK);
        assertThat(o.candidateServed()).isEqualTo(19);
        assertThat(o.shareBeforeVerdict()).isCloseTo(19 / 2001.0, within(1e-12));
        assertThat(o.firstCandidateS()).isCloseTo(2.0, within(1e-9));
        assertThat(o.timeToVerdictS()).isCloseTo(18.0, within(1e-9));
        assertThat(o.errors()).isEqualTo(10);
        assertThat(o.shareByWindow()).hasSize(12);
        assertThat(o.shareByWindow().get(1)).isCloseTo(0.01, within(1e-12));
        assertThat(o.shareByWindow().get(11)).isZero();
    }

    @Test
    void aCandidateThatEndsWithAllTheTrafficWasPromotedAtTheFirstRequestOfThatTail() {
        // 1 % from 0 s, 25 % from 20 s, all of it from 40 s
        Run r = run(i -> i < 2000 ? (i % 100 == 0 ? "v2" : "v1") : i < 4000 ? (i % 4 == 0 ? "v2" : "v1") : "v2");
        RolloutOutcome o = RolloutOutcome.of("healthy", "none", r.results(), r.served(), "v1", "v2");
        assertThat(o.verdict()).isEqualTo(RolloutOutcome.PROMOTED);
        assertThat(o.firstCandidateS()).isZero();
        assertThat(o.timeToVerdictS()).isCloseTo(40.0, within(1e-9));
        assertThat(o.shareByWindow().get(0)).isCloseTo(0.01, within(1e-12));
        assertThat(o.shareByWindow().get(5)).isCloseTo(0.25, within(1e-12));
        assertThat(o.shareByWindow().get(9)).isEqualTo(1.0);
    }

    @Test
    void aRunThatEndsMidwayIsUndecided() {
        // still at 5 % when the run ends
        Run r = run(i -> i % 20 == 0 ? "v2" : "v1");
        RolloutOutcome o = RolloutOutcome.of("slow", "3x", r.results(), r.served(), "v1", "v2");
        assertThat(o.verdict()).isEqualTo(RolloutOutcome.UNDECIDED);
        assertThat(o.candidateServed()).isEqualTo(300);
        assertThat(o.shareBeforeVerdict()).isCloseTo(0.05, within(1e-12));
        assertThat(o.timeToVerdictS()).isNaN();
        String md = RolloutReport.markdown("bench --scenarios rollout", "setup", List.of(o));
        assertThat(md).contains("| slow (3x) | 6000 | 0 | undecided | 300 | 5.0 % | 0.0 s | - |");
    }
}
