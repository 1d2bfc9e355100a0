package io.inferencegateway.lab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import picocli.CommandLine;

class ServeCommandTest {

    @TempDir
    Path dir;

    @Test
    void invalidConfigExitsWithTwoAndOneLineNamingThePath() throws Exception {
        Path config = dir.resolve("bad.yaml");
        Files.writeString(config, """
                kind: InferenceGatewayConfig
                spec:
                  schedulers:
                    - {modelName: a, endpoints: ["h:1"]}
                    - {name: b, endpoints: ["h:2"]}
                """);
        StringWriter err = new StringWriter();
        CommandLine cli = InferenceGatewayCli.commandLine();
        cli.setErr(new PrintWriter(err));
        int code = cli.execute("serve", "--config", config.toString());

        assertThat(code).isEqualTo(2);
        assertThat(err.toString().strip().lines()).containsExactly(
                "invalid config " + config + ": spec.schedulers[1].modelName is required");
    }

    @Test
    void missingConfigFileExitsWithTwo() {
        StringWriter err = new StringWriter();
        CommandLine cli = InferenceGatewayCli.commandLine();
        cli.setErr(new PrintWriter(err));
        assertThat(cli.execute("serve", "--config", dir.resolve("none.yaml").toString())).isEqualTo(2);
        assertThat(err.toString()).contains("config file not found");
    }
}
