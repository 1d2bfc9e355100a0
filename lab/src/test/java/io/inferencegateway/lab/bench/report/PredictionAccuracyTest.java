package io.inferencegateway.lab.bench.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntToDoubleFunction;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import io.inferencegateway.lab.bench.fleet.FaultRecord;
import io.inferencegateway.lab.bench.fleet.FleetSpec;
import io.inferencegateway.lab.bench.fleet.PodFault;
import io.inferencegateway.lab.bench.load.Outcome;
import io.inferencegateway.lab.bench.load.RequestResult;
import io.inferencegateway.lab.bench.load.RunRecording;
import io.inferencegateway.lab.bench.report.PredictionAccuracy.SlowedPod;

/** The predictor's TTFT error read from a run's gateway.log: overall, per pod, per second, and after a slow-down. */
class PredictionAccuracyTest {

    static final Instant T0 = Instant.parse("2025-01-01T12:00:00Z");
    static final String POD_0 = "127.0.0.1:9000";
    static final String POD_1 = "127.0.0.1:9001";
    static final Map<String, String> NAMES = Map.of(POD_0, "pod-0", POD_1, "pod-1");

    /** An access-log line as the gateway writes it, with the prediction fields; {@code predicted} null for none. */
    static String line(long wallMs, String pod, boolean stream, int status, Double ttft, Double predicted,
                       double queueMs, int attempts) {
        return String.format(Locale.ROOT, "{\"time\":\"%s\",\"request_id\":\"bench-1\",\"path\":\"/v1/chat/completions\","
                        + "\"tenant\":null,\"model\":\"m\",\"stream\":%s,\"pool\":\"m\",\"pod\":\"%s\","
                        + "\"pick_reason\":\"score\",\"attempts\":%d,\"priority\":0,\"queue_ms\":%s,\"status\":%d,"
                        + "\"ending\":\"completed\",\"error\":null,\"ttft_ms\":%s,\"duration_ms\":900.5,"
                        + "\"input_tokens\":100,\"output_tokens\":20,\"cached_tokens\":null,\"predicted_ttft_ms\":%s,"
                        + "\"predicted_tpot_ms\":12,\"slo_ttft_ms\":null,\"slo_tpot_ms\":null,\"slo_met\":null}",
                T0.plusMillis(wallMs), stream, pod, attempts, queueMs, status, ttft, predicted == null ? "null"
                        : String.valueOf(Math.round(predicted)));
    }

    static String served(long wallMs, String pod, double ttft, double predicted) {
        return line(wallMs, pod, true, 200, ttft, predicted, 0.0, 1);
    }

    static List<AccessLogEntry> parse(List<String> lines) {
        return lines.stream().flatMap(l -> AccessLogEntry.parse(l).stream()).toList();
    }

    /**
     * 30 requests 100 ms apart, pod-0 (even) predicted 10 % high, pod-1 (odd) 25 % low; three not predicted, one not
     * streamed, one a 503; among them the gateway's other log lines and JSON that is not an access-log line.
     */
    static List<String> mixedLog() {
        List<String> log = new ArrayList<>(List.of(
                "12:00:00.001 INFO  i.i.runtime.GatewayMain - listening on 8080",
                "{\"event\":\"ready\",\"pods\":2}",
                "{not json at all"));
        for (int i = 0; i < 30; i++) {
            String pod = i % 2 == 0 ? POD_0 : POD_1;
            double measured = i % 2 == 0 ? 100 : 200;
            Double predicted = i % 10 == 9 ? null : i % 2 == 0 ? 110.0 : 150.0;
            if (i == 15) {
                log.add(line(i * 100L, pod, false, 200, measured, predicted, 0.0, 1));
            } else if (i == 21) {
                log.add(line(i * 100L, pod, true, 503, null, predicted, 0.0, 1));
            } else {
                log.add(line(i * 100L, pod, true, 200, measured, predicted, 0.0, 1));
            }
            if (i == 4) {
                log.add("12:00:00.402 WARN  i.i.pool.MetricsScraper - scrape of 127.0.0.1:9001 took 80 ms");
            }
        }
        return log;
    }

    @Test
    void onlyJsonLinesWithATtftFieldAreAccessLogLines() {
        assertThat(parse(mixedLog())).hasSize(30);
        AccessLogEntry first = AccessLogEntry.parse(served(0, POD_0, 100, 110)).orElseThrow();
        assertThat(first.time()).isEqualTo(T0);
        assertThat(first.pod()).isEqualTo(POD_0);
        assertThat(first.predictedTtftMs()).isEqualTo(110);
        assertThat(AccessLogEntry.parse(line(0, POD_0, true, 200, 100.0, null, 0, 1)).orElseThrow()
                .predictedTtftMs()).as("null prediction").isNaN();
        assertThat(AccessLogEntry.parse("{\"time\":\"" + T0 + "\",\"ttft_ms\":5}").orElseThrow().comparable())
                .as("an older gateway's line: no prediction field").isFalse();
        assertThat(AccessLogEntry.parse(served(0, POD_0, 100, 110).replace("bench-1", "warm-up-3")))
                .as("a request of the bench's warm-up, before the run").isEmpty();
    }

    @Test
    void mapeAndBiasCoverStreamed200sWithAPredictionAfterTheWarmUp() {
        PredictionAccuracy a = PredictionAccuracy.of(parse(mixedLog()), 2.0, NAMES, List.of());

        assertThat(a.accessLogLines()).isEqualTo(30);
        assertThat(a.predicted()).as("30 less 3 unpredicted, 1 not streamed, 1 failed").isEqualTo(25);
        assertThat(a.warmUp()).as("20 % of 30").isEqualTo(6);
        // after the warm-up (6..29) and without 9, 15, 19, 21, 29: 12 on pod-0 at +10 %, 7 on pod-1 at -25 %
        assertThat(a.ttft().count()).isEqualTo(19);
        assertThat(a.ttft().mape()).isCloseTo((12 * 0.10 + 7 * 0.25) / 19, within(1e-9));
        assertThat(a.ttft().bias()).isCloseTo((12 * 0.10 - 7 * 0.25) / 19, within(1e-9));
        assertThat(a.pods()).extracting(PodPrediction::pod).containsExactly("pod-0", "pod-1");
        assertThat(a.pods().get(0).ttft()).satisfies(p -> {
            assertThat(p.count()).isEqualTo(12);
            assertThat(p.mape()).isCloseTo(0.10, within(1e-9));
            assertThat(p.bias()).isCloseTo(0.10, within(1e-9));
        });
        assertThat(a.pods().get(1).ttft()).satisfies(p -> {
            assertThat(p.count()).isEqualTo(7);
            assertThat(p.mape()).isCloseTo(0.25, within(1e-9));
            assertThat(p.bias()).isCloseTo(-0.25, within(1e-9));
        });
        assertThat(a.recoveries()).as("no fault, no recovery").isEmpty();
    }

    @Test
    void windowsAreSimulatedSecondsFromTheFirstRequestWarmUpIncluded() {
        // 2.9 s of wall time at time scale 2: 5.8 simulated seconds, windows 0..5
        PredictionAccuracy a = PredictionAccuracy.of(parse(mixedLog()), 2.0, NAMES, List.of());

        List<PredictionWindow> pod0 = a.pods().get(0).windows();
        assertThat(pod0).extracting(PredictionWindow::second).containsExactly(0, 1, 2, 3, 4, 5);
        // requests arrive 0.2 simulated seconds apart, pod-0 has every other one: 0, 0.4 and 0.8 in the first second
        assertThat(pod0.get(0).count()).isEqualTo(3);
        assertThat(pod0).allSatisfy(w -> assertThat(w.mape()).isCloseTo(0.10, within(1e-9)));
        assertThat(pod0.stream().mapToInt(PredictionWindow::count).sum()).as("warm-up included").isEqualTo(15);
    }

    /** Two pods, 4 responses a simulated second each for 14 s at time scale 2; pod-1's error per second as given. */
    static List<AccessLogEntry> slowedRun(IntToDoubleFunction pod1Error) {
        return parse(slowedLog(pod1Error));
    }

    static List<String> slowedLog(IntToDoubleFunction pod1Error) {
        List<String> log = new ArrayList<>();
        for (int second = 0; second < 14; second++) {
            for (int k = 0; k < 4; k++) {
                long wallMs = Math.round((second + k * 0.25) / 2.0 * 1000);
                log.add(served(wallMs, POD_0, 100, 105));
                log.add(served(wallMs + 1, POD_1, 1000, 1000 * (1 + pod1Error.applyAsDouble(second))));
            }
        }
        return log;
    }

    @Test
    void aSlowedPodRecoversWhenItsWindowErrorIsBackWithin25PercentAndStays() {
        // wrong by half for the two seconds after the slow-down at 8 s, then 10 %
        List<AccessLogEntry> entries = slowedRun(s -> s < 8 ? 0.05 : s < 10 ? -0.5 : 0.1);

        PredictionAccuracy a = PredictionAccuracy.of(entries, 2.0, NAMES,
                List.of(new SlowedPod("pod-1", "slowed to x0.25", 8.0)));

        assertThat(a.recoveries()).singleElement().satisfies(r -> {
            assertThat(r.pod()).isEqualTo("pod-1");
            assertThat(r.recovered()).isTrue();
            assertThat(r.afterSeconds()).isCloseTo(2.0, within(1e-9));
            assertThat(r.responses()).as("pod-1's responses in seconds 8 and 9").isEqualTo(8);
        });
    }

    @Test
    void aLoneGoodWindowIsNotARecovery() {
        List<AccessLogEntry> entries = slowedRun(s -> s < 8 ? 0.05 : s == 9 ? 0.1 : -0.5);

        PredictionAccuracy a = PredictionAccuracy.of(entries, 2.0, NAMES,
                List.of(new SlowedPod("pod-1", "slowed to x0.25", 8.0)));

        assertThat(a.recoveries()).singleElement().satisfies(r -> {
            assertThat(r.recovered()).isFalse();
            assertThat(r.afterSeconds()).isNaN();
            assertThat(r.responses()).as("all of pod-1's responses from 8 s on").isEqualTo(24);
        });
    }

    @Test
    void aFaultBetweenWindowBoundariesIsJudgedFromTheNextWholeWindow() {
        // the predictor was right in second 8 before the fault at 8.5 and in the half second after it
        List<AccessLogEntry> entries = slowedRun(s -> s <= 8 ? 0.05 : s < 11 ? -0.5 : 0.1);

        PredictionAccuracy a = PredictionAccuracy.of(entries, 2.0, NAMES,
                List.of(new SlowedPod("pod-1", "slowed to x0.25", 8.5)));

        assertThat(a.recoveries().get(0).afterSeconds()).isCloseTo(2.5, within(1e-9));
        assertThat(a.recoveries().get(0).responses()).as("arrivals at 8.5, 8.75, then seconds 9 and 10").isEqualTo(10);
    }

    @Test
    void responsesThatWaitedInTheQueueOrWereFailedOverAreLeftOutAndCounted() {
        List<String> log = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            log.add(served(i * 100L, POD_0, 100, 110));
        }
        log.add(line(1000, POD_0, true, 200, 300.0, 110.0, 200.0, 1));
        log.add(line(1100, POD_0, true, 200, 300.0, 110.0, 0.0, 2));

        PredictionAccuracy a = PredictionAccuracy.of(parse(log), 1.0, NAMES, List.of());

        assertThat(a.predicted()).isEqualTo(12);
        assertThat(a.skippedQueued()).isEqualTo(1);
        assertThat(a.skippedRetried()).isEqualTo(1);
        assertThat(a.ttft().count()).as("12 lines, warm-up 2, the queued and the retried one left out").isEqualTo(8);
        assertThat(a.ttft().mape()).isCloseTo(0.10, within(1e-9));
    }

    @Test
    void aLogWithoutPredictionsIsEmpty() {
        List<String> log = List.of(line(0, POD_0, true, 200, 100.0, null, 0, 1),
                "{\"time\":\"" + T0.plusMillis(5) + "\",\"pod\":\"" + POD_1 + "\",\"stream\":true,\"status\":200,"
                        + "\"ttft_ms\":80.5}");

        assertThat(PredictionAccuracy.of(parse(log), 1.0, NAMES, List.of()).isEmpty()).isTrue();
        assertThat(PredictionAccuracy.of(List.of(), 1.0, NAMES, List.of())).isEqualTo(PredictionAccuracy.NONE);
    }

    /**
     * A two-pod run at time scale 2 whose first request was meant to go out 0.3 s after the run's start, the origin
     * faults are timed from; with {@code faults} and the given gateway.log in {@code dir}.
     */
    static RunReport run(Path dir, List<String> gatewayLog, List<FaultRecord> faults) throws IOException {
        if (gatewayLog != null) {
            Files.write(dir.resolve("gateway.log"), gatewayLog);
        }
        long ms = 1_000_000L;
        List<RequestResult> results = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            results.add(new RequestResult(i, "m", "unique", "", 100, 5, (300 + i * 100) * ms, 0, Outcome.OK, 200, "",
                    100 * ms, new long[] {10 * ms}, 150 * ms, 5, 5, true));
        }
        FleetSpec fleet = new FleetSpec("m", FleetSpec.pods(2), List.of(), 0, 6144, 64, 8192, 2.0);
        RunReport run = RunReport.of("faults", "summary", "w", "a", "gpu-aware", "process", 42, 1, 14, fleet,
                new RunRecording(results, 2.0, 7_000 * ms, 1, 1), List.of(), faults);
        return run.withPredictor(PredictionAccuracy.forRun(dir, List.of(POD_0, POD_1), run));
    }

    @Test
    void aRunWithASlowedPodReportsThePredictorAndItsRecovery(@TempDir Path dir) throws IOException {
        List<String> log = new ArrayList<>(List.of("12:00:00.000 INFO  i.i.runtime.GatewayMain - started"));
        log.addAll(slowedLog(s -> s < 8 ? 0.05 : s < 10 ? -0.5 : 0.1));
        // applied 8.3 s after the run's start: 8.0 s after its first request
        RunReport run = run(dir, log, List.of(new FaultRecord(new PodFault(8, 1, PodFault.Kind.SLOW, 0.25), 8.3, 3,
                List.of())));

        JsonNode predictor = JsonReport.toJson(run).get("predictor");
        assertThat(predictor.get("predicted").asInt()).isEqualTo(112);
        assertThat(predictor.at("/pods/1/pod").asText()).isEqualTo("pod-1");
        assertThat(predictor.at("/pods/1/windows/8/mape").asDouble()).isCloseTo(0.5, within(1e-3));
        assertThat(predictor.at("/recoveries/0/recovered").asBoolean()).isTrue();
        assertThat(predictor.at("/recoveries/0/afterSeconds").asDouble()).isCloseTo(2.0, within(1e-3));
        assertThat(predictor.at("/recoveries/0/responses").asInt()).isEqualTo(8);

        String md = MarkdownReport.scenarioSection(List.of(run));
        assertThat(md).contains("Latency predictor", "| gpu-aware | **all** | ", "| gpu-aware | pod-1 | ",
                "after pod-1 slowed to x0.25 at 8.0 s from the first request, the predictor's error on it was back "
                        + "within 25% 2.0 s later, after 8 of its responses.");
    }

    @Test
    void aHalfWrittenLineOfBytesThatAreNotUtf8IsSkipped(@TempDir Path dir) throws IOException {
        Path log = dir.resolve("gateway.log");
        Files.write(log, List.of(served(0, POD_0, 100, 110), served(100, POD_1, 200, 150)));
        Files.write(log, new byte[] {'{', '"', (byte) 0xC3, (byte) 0x28, '\n'}, StandardOpenOption.APPEND);

        assertThat(AccessLogEntry.read(List.of(log, dir.resolve("gateway-1.log")))).hasSize(2);
    }

    @Test
    void aRunWithoutFaultsHasNoRecovery(@TempDir Path dir) throws IOException {
        RunReport run = run(dir, mixedLog(), List.of());

        assertThat(run.predictor().ttft().count()).isEqualTo(19);
        assertThat(JsonReport.toJson(run).get("predictor").has("recoveries")).isFalse();
        assertThat(MarkdownReport.scenarioSection(List.of(run))).contains("Latency predictor")
                .doesNotContain("back within", "not back");
    }

    @Test
    void aRunWithQueueingIsFlagged(@TempDir Path dir) throws IOException {
        List<String> log = new ArrayList<>(mixedLog());
        log.add(line(3000, POD_0, true, 200, 400.0, 110.0, 290.5, 1));

        RunReport run = run(dir, log, List.of());

        assertThat(JsonReport.toJson(run).at("/predictor/skippedQueued").asInt()).isEqualTo(1);
        assertThat(MarkdownReport.scenarioSection(List.of(run)))
                .contains("gpu-aware: 1 of 26 predicted responses left out: they waited in the gateway's queue");
    }

    @Test
    void aRunWithoutAnAccessLogHasNoPredictorSection(@TempDir Path dir) throws IOException {
        RunReport run = run(dir, null, List.of());

        assertThat(run.predictor().isEmpty()).isTrue();
        assertThat(JsonReport.toJson(run).has("predictor")).isFalse();
        assertThat(MarkdownReport.scenarioSection(List.of(run))).doesNotContain("Latency predictor");
    }
}
