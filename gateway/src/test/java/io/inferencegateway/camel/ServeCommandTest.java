package io.inferencegateway.camel;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import picocli.CommandLine;

/** The gateway's own entry point refuses a bad config before it starts anything. */
class ServeCommandTest {

    /** The command as {@link ServeCommand#main} runs it. */
    static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new ServeCommand());
        cli.setExitCodeExceptionMapper(e -> ServeCommand.EXIT_USAGE);
        return cli;
    }

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
        CommandLine cli = commandLine();
        cli.setErr(new PrintWriter(err));
        int code = cli.execute("--config", config.toString());

        assertThat(code).isEqualTo(2);
        assertThat(err.toString().strip().lines()).containsExactly(
                "invalid config " + config + ": spec.schedulers[1].modelName is required");
    }

    @Test
    void missingConfigFileExitsWithTwo() {
        StringWriter err = new StringWriter();
        CommandLine cli = commandLine();
        cli.setErr(new PrintWriter(err));
        assertThat(cli.execute("--config", dir.resolve("none.yaml").toString())).isEqualTo(2);
        assertThat(err.toString()).contains("config file not found");
    }
}
