package io.inferencegateway.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The bench measures the gateway from the outside: its main code must not import the gateway's
 * internals, only talk HTTP to it. (It may later import the simulator's public API.)
 */
class BenchBoundaryTest {

    private static final Pattern FORBIDDEN = Pattern.compile(
            "^import\\s+(static\\s+)?io\\.inferencegateway\\.(config|core|metrics|scheduling|proxy|camel|processors)\\.",
            Pattern.MULTILINE);

    @Test
    void benchMainCodeImportsNoGatewayInternals() throws IOException {
        Path root = Path.of("src/main/java/io/inferencegateway/bench");
        assertThat(root).isDirectory();
        List<String> offenders;
        try (Stream<Path> files = Files.walk(root)) {
            offenders = files.filter(p -> p.toString().endsWith(".java")).filter(BenchBoundaryTest::importsInternals)
                    .map(Path::toString).toList();
        }
        assertThat(offenders).isEmpty();
    }

    @Test
    void theCheckCatchesAnInternalImport() {
        assertThat(FORBIDDEN.matcher("package x;\nimport io.inferencegateway.core.Endpoint;\n").find()).isTrue();
        assertThat(FORBIDDEN.matcher("import static io.inferencegateway.config.Policy.GPU_AWARE;\n").find()).isTrue();
        assertThat(FORBIDDEN.matcher("import io.inferencegateway.bench.load.LoadGenerator;\n").find()).isFalse();
        assertThat(FORBIDDEN.matcher("import io.inferencegateway.simulator.SimulatedFleet;\n").find()).isFalse();
    }

    private static boolean importsInternals(Path file) {
        try {
            return FORBIDDEN.matcher(Files.readString(file)).find();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
