package io.inferencegateway.lab.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;

import picocli.CommandLine;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

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
}
