package io.inferencegateway.lab.bench.report;

import static io.inferencegateway.lab.bench.report.ReportFixtures.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Map;

import org.junit.jupiter.api.Test;

import io.inferencegateway.lab.bench.load.Outcome;

class RunSummaryTest {

    @Test
    void latenciesCoverSuccessfulRequestsAndErrorsAreCounted() {
        RunSummary s = run("x", "round-robin", 100, 1, 3).summary();
        assertThat(s.requests()).isEqualTo(103);
        assertThat(s.ok()).isEqualTo(100);
        assertThat(s.errors()).isEqualTo(3);
        assertThat(s.outcomes()).isEqualTo(Map.of(Outcome.OK, 100, Outcome.HTTP_ERROR, 3));
        assertThat(s.ttft()).isEqualTo(new LatencySummary(100, 50.5, 50, 90, 99, 100));
        assertThat(s.itl().count()).isEqualTo(400);
        assertThat(s.itl().p99Ms()).isEqualTo(10);
        assertThat(s.e2e().p99Ms()).isEqualTo(139);
    }

    @Test
    void throughputIsOutputTokensOverTheSpanToTheLastEnd() {
        RunSummary s = run("x", "p", 10, 1, 0).summary();
        // last request: intended at 900 ms, ends 10 + 40 ms later; 10 × 5 tokens
        assertThat(s.spanSeconds()).isCloseTo(0.95, within(1e-9));
        assertThat(s.outputTokensPerSecond()).isCloseTo(50 / 0.95, within(1e-9));
    }
}
