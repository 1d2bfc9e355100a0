package io.inferencegateway.lab.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.inferencegateway.lab.bench.fleet.Fleet;
import io.inferencegateway.lab.bench.fleet.FleetLauncher;
import io.inferencegateway.lab.bench.fleet.StubFleetLauncher;
import io.inferencegateway.lab.bench.gateway.GatewayLauncher;
import io.inferencegateway.lab.bench.report.RunReport;

/** The whole bench on stub pods without a gateway: fresh fleets, every output file, same plan per policy. */
class BenchRunnerTest {

    @TempDir
    Path out;

    private final AtomicInteger fleetsStarted = new AtomicInteger();
    private final AtomicInteger fleetsClosed = new AtomicInteger();
    private final List<String> policiesSeen = new ArrayList<>();

    private BenchSettings settings(Path dir, List<String> scenarios) {
        return new BenchSettings(scenarios, List.of("round-robin", "gpu-aware"), 40.0, null, Duration.ofSeconds(2),
                null, 7, 10.0, 2000, ScenarioCatalog.DEFAULT_MODEL, Duration.ofSeconds(300), Duration.ofSeconds(30), dir);
    }

    private BenchRunner runner(PrintStream log) {
        FleetLauncher stub = new StubFleetLauncher();
        FleetLauncher counting = (spec, seed) -> {
            fleetsStarted.incrementAndGet();
            Fleet fleet = stub.start(spec, seed);
            return new Fleet() {
                @Override
                public List<java.net.InetSocketAddress> endpoints() {
                    return fleet.endpoints();
                }

                @Override
                public void close() {
                    fleetsClosed.incrementAndGet();
                    fleet.close();
                }
            };
        };
        GatewayLauncher direct = GatewayLauncher.direct();
        GatewayLauncher recording = (fleet, policy, pods, dir) -> {
            policiesSeen.add(policy);
            assertThat(pods).hasSize(fleet.pods().size());
            return direct.start(fleet, policy, pods, dir);
        };
        return new BenchRunner(counting, recording, "direct", log, false);
    }

    @Test
    void runsEveryPolicyOnAFreshFleetAndWritesEveryOutput() throws Exception {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        List<List<RunReport>> runs = runner(new PrintStream(log, true, StandardCharsets.UTF_8))
                .run(settings(out, List.of("uniform", "lora")), "bench --test");

        assertThat(fleetsStarted).hasValue(4);
        assertThat(fleetsClosed).hasValue(4);
        assertThat(policiesSeen).containsExactly("round-robin", "gpu-aware", "round-robin", "gpu-aware");
        assertThat(runs).hasSize(2).allSatisfy(scenario -> assertThat(scenario).hasSize(2));
        for (List<RunReport> scenario : runs) {
            for (RunReport run : scenario) {
                assertThat(run.summary().errors()).as(run.scenario() + "/" + run.policy()).isZero();
                assertThat(run.summary().requests()).isBetween(50, 120); // 40 req/s over 2 s
                assertThat(run.recording().timeScale()).isEqualTo(10.0);
                assertThat(run.fleet().timeScale()).isEqualTo(10.0);
            }
        }
        // the same plan for every policy: same requests in the same order at the same intended times
        assertThat(intended(runs.get(0).get(0))).isEqualTo(intended(runs.get(0).get(1)));

        for (String file : List.of("report.md", "ttft-p99.png", "uniform/ttft-cdf.png", "uniform/round-robin.json",
                "uniform/gpu-aware.json", "lora/ttft-cdf.png", "lora/gpu-aware.json")) {
            assertThat(out.resolve(file)).as(file).isNotEmptyFile();
        }
        String report = Files.readString(out.resolve("report.md"));
        assertThat(report).contains("## uniform", "## lora", "| round-robin |", "| gpu-aware |", "`bench --test`");
        JsonNode json = new ObjectMapper().readTree(out.resolve("lora/gpu-aware.json").toFile());
        assertThat(json.path("requests").get(0).path("model").asText()).startsWith("llama-3.1-8b-instruct-lora-");
        assertThat(log.toString(StandardCharsets.UTF_8)).contains("uniform: ").contains("report: ");
    }

    @Test
    void theSameSeedGivesTheSameRequestsAcrossBenchRuns() throws Exception {
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        RunReport first = runner(quiet).run(settings(out.resolve("a"), List.of("shared-prefix")), "").get(0).get(0);
        RunReport second = runner(quiet).run(settings(out.resolve("b"), List.of("shared-prefix")), "").get(0).get(0);
        assertThat(intended(first)).isEqualTo(intended(second));
    }

    private static List<String> intended(RunReport run) {
        return run.recording().results().stream()
                .map(r -> r.index() + " " + r.intendedNanos() + " " + r.model() + " " + r.key() + " " + r.promptTokens()
                        + " " + r.maxTokens())
                .toList();
    }
}
