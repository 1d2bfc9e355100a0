package io.inferencegateway.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.ServiceLoader;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import io.inferencegateway.config.EngineCatalog;
import io.inferencegateway.config.PoolConfig;

/**
 * The engine registry, and the convention that makes a new engine one dialect file, one registration line and its
 * CRD enum value (docs/adding-an-engine.md; the CRD half is in InferenceGatewayConfigCrdTest): every dialect file is
 * registered, nothing outside this package names one, and config validation sees the names through the ServiceLoader.
 */
class EngineDialectsTest {

    static final Path METRICS = Path.of("src/main/java/io/inferencegateway/metrics");

    /** The simple names of the classes in this package that declare a dialect. */
    static Stream<String> dialectFiles() throws IOException {
        try (Stream<Path> files = Files.list(METRICS)) {
            return files.filter(f -> read(f).contains("static final EngineDialect INSTANCE = new EngineDialect.Of("))
                    .map(f -> f.getFileName().toString().replace(".java", ""))
                    .sorted()
                    .toList()
                    .stream();
        }
    }

    @Test
    void theBuiltInEnginesAreRegisteredInOrder() {
        assertThat(EngineDialects.names()).containsExactly("vllm", "sglang", "tgi", "trtllm", "llamacpp",
                "inference-gateway");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dialectFiles")
    void everyDialectFileIsRegistered(String dialect) {
        assertThat(read(METRICS.resolve("EngineDialects.java"))).contains(dialect + ".INSTANCE");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dialectFiles")
    void noCodeOutsideThisPackageNamesTheDialectClass(String dialect) throws IOException {
        try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
            List<Path> naming = files.filter(f -> f.toString().endsWith(".java") && !f.startsWith(METRICS))
                    .filter(f -> read(f).matches("(?s).*\\b" + dialect + "\\b.*"))
                    .toList();
            assertThat(naming).as("files outside metrics naming %s", dialect).isEmpty();
        }
    }

    @Test
    void configValidationSeesTheseNamesThroughTheServiceLoader() {
        EngineCatalog catalog = ServiceLoader.load(EngineCatalog.class).findFirst().orElseThrow();

        assertThat(catalog).isInstanceOf(RegisteredEngines.class);
        assertThat(catalog.names()).containsExactlyElementsOf(EngineDialects.names());
    }

    @Test
    void aPoolWithoutAnEngineTypeUsesARegisteredEngine() {
        assertThat(EngineDialects.forEngine(PoolConfig.DEFAULT_ENGINE).name()).isEqualTo(PoolConfig.DEFAULT_ENGINE);
    }

    @Test
    void anEngineIsRegisteredOnceUnderAKebabCaseName() {
        EngineDialect twin = new EngineDialect.Of("vllm", "/metrics", () -> null);
        assertThatThrownBy(() -> EngineDialects.byName(List.of(VllmDialect.INSTANCE, twin)))
                .hasMessage("engine 'vllm' is registered twice");
        assertThatThrownBy(() -> new EngineDialect.Of("vLLM", "/metrics", () -> null))
                .hasMessage("engine name 'vLLM' must be kebab-case, e.g. vllm");
    }

    @Test
    void anUnregisteredEngineIsRefusedWithTheRegisteredNames() {
        assertThatThrownBy(() -> EngineDialects.forEngine("ollama"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("no engine dialect named 'ollama' (vllm, sglang, tgi, trtllm, llamacpp, inference-gateway)");
    }

    private static String read(Path f) {
        try {
            return Files.readString(f);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
