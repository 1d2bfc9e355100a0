package io.inferencegateway.lab.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.inferencegateway.lab.bench.fleet.ExternalServers;
import io.inferencegateway.lab.bench.fleet.FleetSpec;
import io.inferencegateway.lab.bench.fleet.PodStats;
import io.inferencegateway.lab.bench.fleet.ServerEngine;

/** What a report on a user's own servers says differently: real time, caches carried over, servers by address. */
class ExternalFleetReportTest {

    @TempDir
    Path dir;

    private static final ExternalServers SERVERS = new ExternalServers(ServerEngine.LLAMACPP, List.of(
            new InetSocketAddress("127.0.0.1", 8081), new InetSocketAddress("127.0.0.1", 8082)));

    private static RunReport onServers(String policy, List<PodStats> pods) {
        RunReport simulated = ReportFixtures.run("shared-prefix", policy, 20, 10, 0);
        FleetSpec fleet = FleetSpec.onServers(SERVERS, simulated.fleet().withTimeScale(1.0));
        return new RunReport(simulated.scenario(), simulated.scenarioSummary(), simulated.workload(),
                simulated.arrivals(), policy, "process", 42, 0.5, 60, fleet, simulated.recording(), simulated.summary(),
                pods, List.of(), null);
    }

    private static PodStats server(String name, long served, double hitRate) {
        return new PodStats(name, 1.0, served, 0.4, 2, 1.5, hitRate, -1);
    }

    @Test
    void theReportSaysTheTimesAreRealAndTheCachesCarriedOver() {
        String md = MarkdownReport.document("Routing benchmark", "bench --endpoints 127.0.0.1:8081,127.0.0.1:8082",
                List.of(List.of(onServers("round-robin", List.of()), onServers("gpu-aware", List.of()))));

        assertThat(md).contains("All times are wall-clock: the pods are servers the bench does not run")
                .doesNotContain("All times are simulated")
                .contains("The servers' caches carried over")
                .contains("run one policy per invocation (`--policies round-robin`, restart, `--policies gpu-aware`")
                .contains("- Fleet: 2 llama.cpp servers run outside the bench (127.0.0.1:8081, 127.0.0.1:8082) "
                        + "serving meta-llama/Llama-3.1-8B-Instruct; their slots, KV cache and speed are their own");
    }

    @Test
    void aSimulatedReportKeepsItsWording() {
        String md = MarkdownReport.document("Routing benchmark", "bench",
                List.of(List.of(ReportFixtures.run("uniform", "round-robin", 10, 1, 0))));
        assertThat(md).contains("All times are simulated").doesNotContain("caches carried over");
    }

    @Test
    void serversAreColumnsByAddressWithWhatTheyDoNotSayLeftOut() {
        String md = MarkdownReport.podSection(List.of(onServers("gpu-aware", List.of(
                server("127.0.0.1:8081", 12, 0.75), server("127.0.0.1:8082", -1, Double.NaN)))));

        assertThat(md).contains("Per server (served / mean queue / peak queue / prefix-cache hit rate / preemptions)")
                .contains("| policy | 127.0.0.1:8081 | 127.0.0.1:8082 |")
                .contains("| gpu-aware | 12 / 0.4 / 2 / 75% / – | – / 0.4 / 2 / – / – |")
                .doesNotContain("×");
    }

    @Test
    void requestsServedComeFromTheAccessLogWhereTheEngineCountsNone() throws Exception {
        Files.writeString(dir.resolve("gateway.log"), String.join("\n",
                "12:00:00 INFO started",
                access("127.0.0.1:8081", 200), access("127.0.0.1:8081", 200), access("127.0.0.1:8082", 200),
                access("127.0.0.1:8082", 503), access("", 429)) + "\n");

        List<PodStats> filled = ServedPerPod.fillUnknown(List.of(server("127.0.0.1:8081", -1, 0.5),
                server("127.0.0.1:8082", -1, 0.5), server("127.0.0.1:8083", 7, 0.5)), dir);

        assertThat(filled).extracting(PodStats::served).containsExactly(2L, 1L, 7L);
        assertThat(ServedPerPod.fillUnknown(List.of(server("a:1", -1, 0)), dir.resolve("none")))
                .extracting(PodStats::served).as("no log, still unknown").containsExactly(-1L);
    }

    private static String access(String pod, int status) {
        return "{\"time\":\"2026-01-01T12:00:00Z\",\"pod\":\"" + pod + "\",\"status\":" + status
                + ",\"stream\":true,\"ttft_ms\":12.5}";
    }

    @Test
    void theJsonNamesTheEngineAndTheServers() throws Exception {
        Path file = dir.resolve("gpu-aware.json");
        JsonReport.write(onServers("gpu-aware", List.of()), file);

        JsonNode fleet = new ObjectMapper().readTree(file.toFile()).path("fleet");
        assertThat(fleet.path("external").path("engine").asText()).isEqualTo("llamacpp");
        assertThat(fleet.path("external").path("endpoints").toString())
                .isEqualTo("[\"127.0.0.1:8081\",\"127.0.0.1:8082\"]");
        assertThat(fleet.path("timeScale").asDouble()).isEqualTo(1.0);
    }
}
