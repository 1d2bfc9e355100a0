package io.inferencegateway.lab.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import picocli.CommandLine;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.inferencegateway.lab.bench.fleet.ExternalServers;
import io.inferencegateway.lab.bench.fleet.ServerEngine;
import io.inferencegateway.lab.bench.gateway.GatewayProcess;

class BenchCommandTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "through the main CLI: 'bench' comes with the args | bench --scenario lora | bench --scenario lora",
        "through BenchCommand.main: no 'bench' in the args  | --scenario lora       | bench --scenario lora",
        "no args at all                                     |                       | 'bench '",
    })
    void theReportedCommandNamesBenchOnce(String name, String args, String expected) {
        List<String> original = args == null ? List.of() : Arrays.asList(args.split(" "));
        assertThat(BenchCommand.commandLine(original)).isEqualTo(expected);
    }

    @Test
    void theSloComparisonParsesAsTheDocsWriteIt() {
        BenchCommand bench = new BenchCommand();
        new CommandLine(bench).parseArgs("--scenarios", "slo", "--policies", "least-request,gpu-aware-no-slo,gpu-aware",
                "--load", "1.2", "--seed", "42");
        assertThat(bench.scenarios).containsExactly("slo");
        assertThat(bench.policies).containsExactly("least-request", "gpu-aware-no-slo", "gpu-aware");
        assertThat(bench.offered.load).isEqualTo(1.2);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            "--scenarios uniform                    | false",
            "--scenarios slo                        | true",
            "--scenarios uniform --flow-control     | true",
            "--scenarios slo --flow-control off     | false",
            "--scenarios uniform --flow-control=on  | true"})
    void flowControlIsOnForTheScenariosThatNeedItUnlessTurnedOff(String args, boolean on) {
        BenchCommand bench = new BenchCommand();
        new CommandLine(bench).parseArgs(args.trim().split(" +"));
        assertThat(bench.flowControlOn()).isEqualTo(on);
    }

    private static BenchCommand parsed(String args) {
        BenchCommand bench = new BenchCommand();
        new CommandLine(bench).parseArgs(args.trim().split(" +"));
        return bench;
    }

    @Test
    void theServersOfEndpointsComeWithTheirEngineInTheOrderGiven() {
        ExternalServers servers = parsed("--endpoints 127.0.0.1:8081,localhost:8082 --engine llamacpp --rate 0.5 "
                + "--scenarios shared-prefix,uniform").externalServers();

        assertThat(servers.engine()).isEqualTo(ServerEngine.LLAMACPP);
        assertThat(servers.names()).containsExactly("127.0.0.1:8081", "localhost:8082");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "without --endpoints there are none             | --scenarios uniform",
        "--time-scale 1 is what real servers run at     | --endpoints 127.0.0.1:8081 --engine vllm --rate 1 --time-scale 1",
        "an engine in capitals is the same engine       | --endpoints 127.0.0.1:8081 --engine VLLM --rate 1",
        "an IPv6 server in brackets                     | --endpoints [::1]:8081 --engine tgi --rate 1",
    })
    void theseAreAccepted(String name, String args) {
        BenchCommand bench = parsed(args);
        if (bench.endpoints == null) {
            assertThat(bench.externalServers()).isNull();
        } else {
            assertThat(bench.externalServers().endpoints()).hasSize(1);
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "with --fleet                 | --endpoints 127.0.0.1:8081 --engine vllm --rate 1 --fleet sim  | --endpoints and --fleet exclude each other",
        "with the stub fleet          | --fleet stub --endpoints 127.0.0.1:8081 --engine vllm --rate 1 | --endpoints and --fleet exclude each other",
        "no engine                    | --endpoints 127.0.0.1:8081 --rate 1                            | --endpoints needs --engine, the engine the servers run (llamacpp, vllm, sglang, tgi, trtllm)",
        "an engine without servers    | --engine vllm                                                  | --engine names the engine of the servers of --endpoints",
        "an unknown engine            | --endpoints 127.0.0.1:8081 --engine ollama --rate 1            | --engine: unknown engine 'ollama'; known: llamacpp, vllm, sglang, tgi, trtllm",
        "no port                      | --endpoints 127.0.0.1 --engine vllm --rate 1                   | --endpoints entry '127.0.0.1' is not host:port: the port is missing",
        "a port out of range          | --endpoints 127.0.0.1:70000 --engine vllm --rate 1             | --endpoints entry '127.0.0.1:70000' is not host:port: the port must be from 1 to 65535",
        "port zero                    | --endpoints 127.0.0.1:0 --engine vllm --rate 1                 | the port must be from 1 to 65535",
        "a port that is no number     | --endpoints 127.0.0.1:http --engine vllm --rate 1              | --endpoints entry '127.0.0.1:http' is not host:port",
        "a URL                        | --endpoints http://127.0.0.1:8081 --engine vllm --rate 1       | give the server's address without a scheme",
        "a path                       | --endpoints 127.0.0.1:8081/v1 --engine vllm --rate 1           | --endpoints entry '127.0.0.1:8081/v1' is not host:port",
        "a server twice               | --endpoints 127.0.0.1:8081,127.0.0.1:8081 --engine vllm --rate 1 | --endpoints lists 127.0.0.1:8081 twice",
        "an empty entry               | --endpoints 127.0.0.1:8081,,127.0.0.1:8082 --engine vllm --rate 1 | --endpoints has an empty entry",
        "another time scale           | --endpoints 127.0.0.1:8081 --engine vllm --rate 1 --time-scale 4 | --time-scale must be 1 with --endpoints",
        "a load instead of a rate     | --endpoints 127.0.0.1:8081 --engine vllm --load 0.8            | --load is a share of the fleet's capacity",
        "no rate                      | --endpoints 127.0.0.1:8081 --engine vllm                       | --endpoints needs --rate",
        "faults                       | --endpoints 127.0.0.1:8081 --engine vllm --rate 1 --scenarios faults | faults cannot run on --endpoints: it kills, slows and breaks pods",
        "lora beside uniform          | --endpoints 127.0.0.1:8081 --engine vllm --rate 1 --scenarios uniform,lora | lora cannot run on --endpoints",
        "heterogeneous                | --endpoints 127.0.0.1:8081 --engine vllm --rate 1 --scenarios heterogeneous | heterogeneous cannot run on --endpoints",
        "conversations                | --endpoints 127.0.0.1:8081 --engine vllm --rate 1 --scenarios conversations | conversations cannot run on --endpoints",
    })
    void theseAreRefusedWithAMessageThatSaysWhy(String name, String args, String message) {
        assertThatThrownBy(() -> parsed(args).externalServers()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(message);
    }

    @Test
    void aRefusedScenarioNamesTheOnesThatCanRun() {
        assertThatThrownBy(() -> parsed("--endpoints 127.0.0.1:8081 --engine vllm --rate 1 --scenarios global")
                .externalServers()).hasMessageEndingWith("Scenarios that can: shared-prefix, bursty, uniform, "
                + "priorities, slo, slo-tight");
    }

    @Test
    void withoutScenariosTheRoutingOnesThatCanRunOnRealServersRun() {
        assertThat(ExternalFleetScenarios.defaultNames()).containsExactly("shared-prefix", "bursty", "uniform");
    }

    @Test
    void everyRefusedScenarioIsOneTheBenchKnows() {
        List<String> known = new java.util.ArrayList<>(ScenarioCatalog.names());
        known.addAll(ConversationScenario.NAMES);
        known.add(RolloutScenario.NAME);
        assertThat(known).containsAll(ExternalFleetScenarios.REFUSED.keySet());
    }

    @TempDir
    Path out;

    @Test
    void aServerThatDoesNotAnswerStopsTheBenchBeforeItStartsWithExitCode1() throws Exception {
        int closed = GatewayProcess.freePort();
        String err = runForStderr(1, "--endpoints", "127.0.0.1:" + closed, "--engine", "vllm", "--rate", "1",
                "--out", out.toString());
        assertThat(err).contains("bench: cannot reach 1 of 1 servers: 127.0.0.1:" + closed
                + " (/v1/models: connection refused; /health: connection refused)");
        assertThat(out).isEmptyDirectory();
    }

    @Test
    void aBadOptionIsAUsageErrorWithExitCode2() throws Exception {
        String err = runForStderr(2, "--endpoints", "127.0.0.1:8081", "--engine", "vllm", "--rate", "1", "--fleet",
                "stub");
        assertThat(err).startsWith("bench: --endpoints and --fleet exclude each other");
    }

    private static String runForStderr(int expectedExit, String... args) {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        PrintStream original = System.err;
        System.setErr(new PrintStream(buffer, true, StandardCharsets.UTF_8));
        int exit;
        try {
            exit = new CommandLine(new BenchCommand()).execute(args);
        } finally {
            System.setErr(original);
        }
        String err = buffer.toString(StandardCharsets.UTF_8);
        assertThat(exit).as(err).isEqualTo(expectedExit);
        return err;
    }
}
