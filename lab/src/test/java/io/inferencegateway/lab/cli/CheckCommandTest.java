package io.inferencegateway.lab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

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
        return run("--config", config.toString());
    }

    private int run(String... args) {
        CommandLine cli = new CommandLine(new CheckCommand());
        cli.setExitCodeExceptionMapper(e -> InferenceGatewayCli.EXIT_USAGE);
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        return cli.execute(args);
    }

    /** A copy of the repository's routes/ in {@code dir/routes}. */
    private Path theGatewaysRoutes() throws IOException {
        Path routes = Files.createDirectory(dir.resolve("routes"));
        try (Stream<Path> files = Files.list(Path.of("..", "routes"))) {
            for (Path f : files.toList()) {
                Files.copy(f, routes.resolve(f.getFileName()));
            }
        }
        return routes;
    }

    @Test
    void theGatewaysOwnRoutesLoadAndAnEditThatDoesNotIsNamedWithItsLine() throws Exception {
        Path routes = theGatewaysRoutes();
        assertThat(run("--routes", routes.toString())).as("%s", err).isEqualTo(0);
        assertThat(out.toString()).contains("12 files, 13 routes and route templates load",
                "not loaded (they declare beans): gateway-beans.camel.yaml");

        Path health = routes.resolve("health.camel.yaml");
        Files.writeString(health, Files.readString(health).replace("setBody:", "setBodyy:"));
        assertThat(run("--routes", routes.toString())).isEqualTo(InferenceGatewayCli.EXIT_USAGE);
        assertThat(err.toString()).contains("health.camel.yaml: Unknown node id: setBodyy", "line 10, column 11");
    }

    @Test
    void aRouteIdTwoFilesShareIsNamed() throws Exception {
        Path routes = theGatewaysRoutes();
        Files.copy(routes.resolve("models.camel.yaml"), routes.resolve("models-copy.camel.yaml"));
        assertThat(run("--routes", routes.toString())).isEqualTo(InferenceGatewayCli.EXIT_USAGE);
        assertThat(err.toString()).contains("models.camel.yaml: route id list-models is also in models-copy.camel.yaml");
    }

    @Test
    void checkNeedsAConfigOrRoutes() {
        assertThat(run()).isEqualTo(InferenceGatewayCli.EXIT_USAGE);
        assertThat(err.toString()).contains("give --config FILE, --routes DIR or both");
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
