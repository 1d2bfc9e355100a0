package io.inferencegateway.lab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import picocli.CommandLine;

/** {@code check}: a config validated as serve would, with what it will do, and exit codes a CI step reads. */
class CheckCommandTest {

    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int check(String yaml) throws Exception {
        Path config = dir.resolve("gateway.yaml");
        Files.writeString(config, yaml);
        CommandLine cli = new CommandLine(new CheckCommand());
        cli.setExitCodeExceptionMapper(e -> InferenceGatewayCli.EXIT_USAGE);
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        return cli.execute("--config", config.toString());
    }

    @Test
    void aValidConfigExitsZeroAndSaysWhatItWillDo() throws Exception {
        int code = check("""
                kind: InferenceGatewayConfig
                spec:
                  schedulers:
                    - name: llama
                      modelName: meta-llama/Llama-3.1-8B-Instruct
                      endpoints: ["10.0.0.1:8000", "10.0.0.2:8000"]
                      picker: predicted-time
                    - name: qwen
                      modelName: Qwen/Qwen2.5-7B-Instruct
                      modelSelector: {matchLabels: {app: qwen}}
                      policy: round-robin
                """);

        assertThat(code).as("%s", err).isEqualTo(0);
        assertThat(err.toString()).isEmpty();
        assertThat(out.toString().lines()).first().asString().endsWith("gateway.yaml is valid");
        assertThat(out.toString())
                .contains("pool llama: model meta-llama/Llama-3.1-8B-Instruct, 2 endpoints, policy gpu-aware")
                .contains("prefix-cache-scorer ×").contains("predicted-time-picker")
                .contains("pool qwen: model Qwen/Qwen2.5-7B-Instruct, pods labelled {app=qwen}")
                .contains("policy round-robin");
    }

    @Test
    void anInvalidConfigExitsTwoWithServesMessage() throws Exception {
        int code = check("""
                kind: InferenceGatewayConfig
                spec:
                  schedulers:
                    - {name: a, modelName: m, endpoints: ["h:1"], picker: fastest}
                """);

        assertThat(code).isEqualTo(2);
        assertThat(out.toString()).isEmpty();
        assertThat(err.toString()).startsWith("invalid config " + dir.resolve("gateway.yaml") + ": ")
                .contains("spec.schedulers[0].picker");
    }

    @Test
    void aSecretFileTheConfigNamesMustBeReadable() throws Exception {
        int code = check("""
                kind: InferenceGatewayConfig
                spec:
                  cluster: {tokenFile: %s}
                  schedulers:
                    - {name: a, modelName: m, endpoints: ["h:1"]}
                """.formatted(dir.resolve("missing-token")));

        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("spec.cluster.tokenFile");
    }
}
