package io.inferencegateway.lab.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.inferencegateway.simulator.FleetOptions;
import io.inferencegateway.simulator.SimulatedFleet;
import picocli.CommandLine;

/**
 * {@code bench --endpoints} end to end: two simulated vLLM servers started here stand in for servers a user already
 * runs (the bench starts none of its own), and a small uniform scenario goes through the runnable jar's gateway to
 * them under round-robin and gpu-aware, in real time. The model is the one the servers list, the report names the
 * servers, and every request is answered.
 */
class OwnFleetBenchIT {

    static final String MODEL = "Qwen/Qwen2.5-0.5B-Instruct";

    @TempDir
    Path out;

    @Test
    void aSmallScenarioOnServersTheUserRunsIsServedAndReportedByServer() throws Exception {
        Path jar = Path.of(System.getProperty("gateway.jar", "../target/inference-gateway.jar")).toAbsolutePath();
        assertThat(jar).exists();
        try (SimulatedFleet servers = SimulatedFleet.start(FleetOptions.builder().pods(2).basePort(0).adminPort(-1)
                .model(MODEL).timeScale(1).seed(7).build())) {
            List<String> endpoints = servers.ports().stream().map(port -> "127.0.0.1:" + port).toList();

            int exit = new CommandLine(new BenchCommand()).execute("--endpoints", String.join(",", endpoints),
                    "--engine", "vllm", "--scenarios", "uniform", "--policies", "round-robin,gpu-aware",
                    "--rate", "10", "--duration", "2", "--max-requests", "16", "--seed", "7",
                    "--gateway-jar", jar.toString(), "--out", out.toString());

            assertThat(exit).isZero();
            String report = Files.readString(out.resolve("report.md"));
            assertThat(report).contains("- Fleet: 2 vLLM servers run outside the bench (" + String.join(", ", endpoints)
                            + ") serving " + MODEL)
                    .contains("All times are wall-clock").contains("The servers' caches carried over")
                    .contains("| policy | " + endpoints.stream().collect(Collectors.joining(" | ")) + " |");
            long sent = 0;
            for (String policy : List.of("round-robin", "gpu-aware")) {
                JsonNode run = new ObjectMapper().readTree(out.resolve("uniform").resolve(policy + ".json").toFile());
                JsonNode summary = run.path("summary");
                assertThat(summary.path("requests").asInt()).as(policy).isBetween(8, 16);
                assertThat(summary.path("ok").asInt()).as(policy + ": every request answered")
                        .isEqualTo(summary.path("requests").asInt());
                assertThat(run.path("timeScale").asDouble()).isEqualTo(1.0);
                long served = 0;
                for (JsonNode pod : run.path("pods")) {
                    served += pod.path("served").asLong();
                }
                assertThat(served).as(policy + ": the servers' own counts, from the run's start")
                        .isEqualTo(summary.path("ok").asLong());
                sent += summary.path("requests").asLong();
                assertThat(Files.readString(out.resolve("uniform").resolve(policy).resolve("gateway.yaml")))
                        .contains("engineType: vllm").contains("modelName: " + MODEL);
            }
            assertThat(servers.requestsServed()).as("every request reached the user's servers").isEqualTo(sent);
        }
    }
}
