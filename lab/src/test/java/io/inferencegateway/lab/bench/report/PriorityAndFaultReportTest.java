package io.inferencegateway.lab.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.inferencegateway.lab.bench.fleet.FaultRecord;
import io.inferencegateway.lab.bench.fleet.FleetSpec;
import io.inferencegateway.lab.bench.fleet.PodFault;
import io.inferencegateway.lab.bench.load.Outcome;
import io.inferencegateway.lab.bench.load.RequestResult;
import io.inferencegateway.lab.bench.load.RunRecording;

/** The per-class breakdown of a run with priorities and the failure accounting of a run with faults. */
class PriorityAndFaultReportTest {

    private static final long MS = 1_000_000L;
    private static final FleetSpec FLEET = new FleetSpec("m", FleetSpec.pods(4), List.of(), 0, 6144, 64, 8192, 1.0);

    private static RequestResult ok(int i, String priority, long ttftMs) {
        return new RequestResult(i, "m", "unique", "", 100, 5, i * MS, 0, Outcome.OK, 200, "", ttftMs * MS,
                new long[] {MS}, (ttftMs + 5) * MS, 5, 5, true, priority, "", "");
    }

    private static RequestResult refused(int i, String priority, String reason) {
        return new RequestResult(i, "m", "unique", "", 100, 5, i * MS, 0, Outcome.REFUSED, 429, "HTTP 429", -1,
                new long[0], MS, 0, 0, false, priority, reason, "1");
    }

    private static RequestResult failed(int i, Outcome outcome, String error) {
        return new RequestResult(i, "m", "unique", "", 100, 5, i * MS, 0, outcome, outcome == Outcome.HTTP_ERROR
                ? 503 : 200, error, 3 * MS, new long[0], -1, 1, 1, false, "", "", "");
    }

    private static RunReport run(String policy, List<RequestResult> results, List<FaultRecord> faults) {
        return RunReport.of("s", "summary", "w", "a", policy, "process", 1, 1, 10, FLEET,
                new RunRecording(results, 1, 10 * MS, 1, 1), List.of(), faults);
    }

    @Test
    void refusalsAreCountedPerClassAndReasonApartFromErrors() {
        List<RequestResult> rr = new ArrayList<>();
        List<RequestResult> aware = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            rr.add(ok(i, i < 5 ? "critical" : "sheddable", 1000));
            aware.add(i < 5 ? ok(i, "critical", 100) : refused(i, "sheddable", i < 8 ? "sheddable_saturated" : "queue_full"));
        }
        aware.add(failed(10, Outcome.HTTP_ERROR, "HTTP 503"));
        RunReport baseline = run("round-robin", rr, List.of());
        RunReport measured = run("gpu-aware", aware, List.of());

        assertThat(measured.summary().refused()).isEqualTo(5);
        assertThat(measured.summary().errors()).as("the 503 only").isEqualTo(1);
        assertThat(measured.summary().classes()).extracting(ClassSummary::priority)
                .containsExactly("critical", "sheddable");
        ClassSummary sheddable = measured.summary().classes().get(1);
        assertThat(sheddable.priority()).isEqualTo("sheddable");
        assertThat(sheddable.refused()).isEqualTo(5);
        assertThat(sheddable.errors()).isZero();
        assertThat(sheddable.refusedByReason()).containsExactly(java.util.Map.entry("queue_full", 2),
                java.util.Map.entry("sheddable_saturated", 3));
        assertThat(sheddable.refusedWithRetryAfter()).isEqualTo(5);

        String md = MarkdownReport.scenarioSection(List.of(baseline, measured));
        assertThat(md).contains("Per priority class")
                .contains("| gpu-aware | critical | 5 | 5 | 100 ms | 100 ms | 100 ms | 0.10× (−90%) | 0 | 0 | – | 0 |")
                .contains("| gpu-aware | sheddable | 5 | 0 |")
                .contains("queue_full 2, sheddable_saturated 3");
        JsonNode json = JsonReport.toJson(measured);
        assertThat(json.at("/summary/refused").asInt()).isEqualTo(5);
        assertThat(json.at("/summary/priorityClasses/1/refusedByReason/queue_full").asInt()).isEqualTo(2);
        assertThat(json.at("/requests/7/droppedReason").asText()).isEqualTo("sheddable_saturated");
    }

    @Test
    void failuresAreMatchedWithTheStreamsTheKillCut() {
        List<RequestResult> results = List.of(ok(0, "", 10),
                failed(1, Outcome.CONNECTION_ERROR, "connection closed before the response ended"),
                failed(2, Outcome.STREAM_ERROR, "stream ended without [DONE]"),
                failed(3, Outcome.HTTP_ERROR, "HTTP 503"));
        FaultRecord kill = new FaultRecord(new PodFault(1, 0, PodFault.Kind.KILL, 0), 1.02, 2,
                List.of(RequestResult.requestId(1), RequestResult.requestId(2)));
        FaultRecord unavailable = new FaultRecord(new PodFault(2, 2, PodFault.Kind.UNAVAILABLE, 0), 2.0, 1, List.of());

        FaultOutcome outcome = FaultOutcome.of(results, List.of(kill, unavailable));
        assertThat(outcome.failed()).isEqualTo(3);
        assertThat(outcome.cutByKill()).isEqualTo(2);
        assertThat(outcome.unexplained()).extracting(RequestResult::index).containsExactly(3);

        String md = MarkdownReport.scenarioSection(List.of(run("gpu-aware", results, List.of(kill, unavailable))));
        assertThat(md).contains("- at 1.0 s pod-0 killed; it held 2 requests, the kill cut 2 streams")
                .contains("- at 2.0 s pod-2 answers 503 to inference")
                .contains("3 of 4 requests failed: 2 were streams the kill cut, 1 others (the target is missed).")
                .contains("| HTTP_ERROR: HTTP 503 | 1 |")
                .contains("not explained by the kill: request 3");
        assertThat(JsonReport.toJson(run("gpu-aware", results, List.of(kill))).at("/failures/cutByKill").asInt())
                .isEqualTo(2);
    }
}
