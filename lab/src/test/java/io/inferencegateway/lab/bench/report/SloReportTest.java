package io.inferencegateway.lab.bench.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import com.fasterxml.jackson.databind.JsonNode;

import io.inferencegateway.lab.bench.fleet.FleetSpec;
import io.inferencegateway.lab.bench.load.Outcome;
import io.inferencegateway.lab.bench.load.RequestResult;
import io.inferencegateway.lab.bench.load.RunRecording;
import io.inferencegateway.lab.bench.workload.SloClass;

/** Whether a request met its latency targets, and attainment and goodput per class and over a run. */
class SloReportTest {

    private static final long MS = 1_000_000L;
    private static final FleetSpec FLEET = new FleetSpec("m", FleetSpec.pods(2), List.of(), 0, 6144, 64, 8192, 1.0);
    private static final SloClass INTERACTIVE = new SloClass("interactive", Duration.ofMillis(500),
            Duration.ofMillis(50));
    private static final SloClass BATCH = SloClass.ttft("batch", Duration.ofSeconds(20));

    /** A request of {@code slo} that ended as {@code outcome}, first token at {@code ttftMs}, response end at e2eMs. */
    private static RequestResult result(int i, SloClass slo, Outcome outcome, long ttftMs, long e2eMs, int tokens) {
        return new RequestResult(i, "m", "unique", "", 100, tokens, i * 10 * MS, 0, outcome,
                outcome == Outcome.REFUSED ? 429 : outcome == Outcome.OK ? 200 : 0, outcome == Outcome.OK ? "" : "x",
                ttftMs < 0 ? -1 : ttftMs * MS, new long[0], e2eMs < 0 ? -1 : e2eMs * MS, tokens, tokens, true,
                slo == BATCH ? "sheddable" : slo.isNone() ? "" : "critical", "", "", slo);
    }

    @ParameterizedTest(name = "{0}: {6}")
    @CsvSource({
        // case                        outcome           TTFT  end   tokens TPOT  verdict
        "met,                          OK,               400,  900,  11,    50,   MET",         // both at the target
        "TTFT missed,                  OK,               501,  601,  11,    10,   TTFT_MISSED",
        "TPOT missed,                  OK,               100,  700,  11,    60,   TPOT_MISSED",
        "one token has no TPOT,        OK,               100,  5000, 1,     -1,   MET",
        "refused,                      REFUSED,          -1,   1,    0,     -1,   NOT_SERVED",
        "first token then cut,         CONNECTION_ERROR, 100,  -1,   3,     -1,   NOT_SERVED",
        "timed out,                    TIMEOUT,          -1,   -1,   0,     -1,   NOT_SERVED",
    })
    void anInteractiveRequestMeetsItsTargetsOnlyWhenServedInTime(String name, Outcome outcome, long ttftMs, long e2eMs,
                                                                   int tokens, long tpotMs, SloVerdict verdict) {
        RequestResult r = result(0, INTERACTIVE, outcome, ttftMs, e2eMs, tokens);
        assertThat(r.tpotNanos()).as("TPOT = (end - first token) / (tokens - 1)")
                .isEqualTo(tpotMs < 0 ? -1 : tpotMs * MS);
        assertThat(SloVerdict.of(r)).isEqualTo(verdict);
    }

    @Test
    void aClassWithoutATpotTargetIsJudgedByTtftAlone() {
        assertThat(SloVerdict.of(result(0, BATCH, Outcome.OK, 19_000, 90_000, 11))).isEqualTo(SloVerdict.MET);
        assertThat(SloVerdict.of(result(0, BATCH, Outcome.OK, 20_001, 21_000, 11))).isEqualTo(SloVerdict.TTFT_MISSED);
        assertThat(SloVerdict.of(result(0, SloClass.NONE, Outcome.REFUSED, -1, 1, 0)))
                .isEqualTo(SloVerdict.NO_TARGETS);
    }

    /** Five interactive (two met), three batch (two met, one refused), one without targets; 10 s of arrivals. */
    private static RunReport run(String policy) {
        List<RequestResult> results = List.of(
                result(0, INTERACTIVE, Outcome.OK, 100, 600, 11),     // met, TPOT 50 ms
                result(1, INTERACTIVE, Outcome.OK, 300, 500, 11),     // met, TPOT 20 ms
                result(2, INTERACTIVE, Outcome.OK, 800, 900, 11),     // TTFT missed
                result(3, INTERACTIVE, Outcome.OK, 200, 1200, 11),    // TPOT missed (100 ms)
                result(4, INTERACTIVE, Outcome.HTTP_ERROR, -1, 5, 0), // failed
                result(5, BATCH, Outcome.OK, 5_000, 6_000, 11),
                result(6, BATCH, Outcome.OK, 15_000, 16_000, 11),
                result(7, BATCH, Outcome.REFUSED, -1, 1, 0),
                result(8, SloClass.NONE, Outcome.OK, 100, 200, 11));
        return RunReport.of("slo", "summary", "w", "a", policy, "process", 42, 0.9, 10, FLEET,
                new RunRecording(results, 1, 10_000 * MS, 1, 1));
    }

    @Test
    void attainmentAndGoodputPerClassAndOverAll() {
        SloAttainment slo = run("gpu-aware").slo();

        assertThat(slo.classes()).extracting(c -> c.slo().name()).containsExactly("interactive", "batch");
        SloSummary interactive = slo.classes().get(0);
        assertThat(interactive.priority()).isEqualTo("critical");
        assertThat(interactive.requests()).isEqualTo(5);
        assertThat(interactive.met()).isEqualTo(2);
        assertThat(interactive.ttftMissed()).isEqualTo(1);
        assertThat(interactive.tpotMissed()).isEqualTo(1);
        assertThat(interactive.notServed()).isEqualTo(1);
        assertThat(interactive.attainment()).isEqualTo(0.4);
        assertThat(interactive.goodput()).as("2 met over 10 s of arrivals").isCloseTo(0.2, within(1e-9));
        assertThat(interactive.ttft().p50Ms()).as("served ones only: 100, 200, 300, 800").isEqualTo(200);
        assertThat(interactive.tpot().p99Ms()).isEqualTo(100);

        SloSummary batch = slo.classes().get(1);
        assertThat(batch.met()).isEqualTo(2);
        assertThat(batch.notServed()).isEqualTo(1);
        assertThat(batch.priority()).isEqualTo("sheddable");

        assertThat(slo.requests()).as("the request without targets is left out").isEqualTo(8);
        assertThat(slo.met()).isEqualTo(4);
        assertThat(slo.attainment()).isEqualTo(0.5);
        assertThat(slo.goodput()).isCloseTo(0.4, within(1e-9));
    }

    @Test
    void theReportsShowTheClassesNextToThePriorityTable() {
        String md = MarkdownReport.scenarioSection(List.of(run("least-request"), run("gpu-aware")));
        assertThat(md).contains("Latency targets (`x-slo-ttft-ms`, `x-slo-tpot-ms`)")
                .contains("| gpu-aware | interactive | critical | TTFT ≤ 500 ms, TPOT ≤ 50 ms | 5 | 2 | 40.0% | 1 | 1 "
                        + "| 1 | 0.2 | 200 ms | 800 ms | 100 ms |")
                .contains("| gpu-aware | batch | sheddable | TTFT ≤ 20 s | 3 | 2 | 66.7% | 0 | 0 | 1 | 0.2 |")
                .contains("| least-request | **all** | | | 8 | 4 | 50.0% | | | | **0.4** | | | |");
        assertThat(md.indexOf("Per priority class")).as("after the priority table")
                .isLessThan(md.indexOf("Latency targets"));

        JsonNode json = JsonReport.toJson(run("gpu-aware"));
        assertThat(json.at("/summary/slo/goodput").asDouble()).isEqualTo(0.4);
        assertThat(json.at("/summary/slo/attainment").asDouble()).isEqualTo(0.5);
        assertThat(json.at("/summary/slo/classes/0/name").asText()).isEqualTo("interactive");
        assertThat(json.at("/summary/slo/classes/0/ttftTargetMs").asDouble()).isEqualTo(500);
        assertThat(json.at("/summary/slo/classes/1/tpotTargetMs").isNull()).isTrue();
        assertThat(json.at("/summary/slo/classes/0/tpotMissed").asInt()).isEqualTo(1);
        assertThat(json.at("/requests/3/slo").asText()).isEqualTo("TPOT_MISSED");
        assertThat(json.at("/requests/3/tpotMs").asDouble()).isEqualTo(100);
        assertThat(json.at("/requests/8/slo").isMissingNode()).isTrue();
    }

    @Test
    void aRunWithoutTargetsHasNoSloSection() {
        RunReport plain = ReportFixtures.run("uniform", "round-robin", 5, 10, 0);
        assertThat(plain.slo().isEmpty()).isTrue();
        assertThat(MarkdownReport.scenarioSection(List.of(plain))).doesNotContain("Latency targets");
        assertThat(JsonReport.toJson(plain).at("/summary/slo").isMissingNode()).isTrue();
    }
}
