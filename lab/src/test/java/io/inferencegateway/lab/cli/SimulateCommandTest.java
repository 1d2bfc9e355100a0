package io.inferencegateway.lab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import picocli.CommandLine;

class SimulateCommandTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "unknown engine  | --engine=mxnet        | 2",
        "zero pods       | --pods=0              | 2",
        "bad speed       | --speed=1,0           | 2",
        "bad time scale  | --time-scale=0        | 2"})
    void rejectsBadOptionsWithUsageExitCode(String scenario, String option, int exit) {
        CommandLine cli = InferenceGatewayCli.commandLine();
        StringWriter err = new StringWriter();
        cli.setErr(new PrintWriter(err));
        assertThat(cli.execute("simulate", option)).isEqualTo(exit);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"help, --help"})
    void isRegisteredAsSubcommand(String scenario, String option) {
        CommandLine cli = InferenceGatewayCli.commandLine();
        StringWriter out = new StringWriter();
        cli.setOut(new PrintWriter(out));
        assertThat(cli.execute("simulate", option)).isZero();
        assertThat(out.toString()).contains("--pods", "--base-port", "--time-scale", "--admin-port", "--calibrate");
    }
}
