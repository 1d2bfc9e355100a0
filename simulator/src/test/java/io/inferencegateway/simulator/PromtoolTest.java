package io.inferencegateway.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Each dialect's /metrics goes through a real Prometheus parser, {@code promtool check metrics}.
 * promtool exits 1 on a parse error and 3 on lint findings; the only findings allowed are the ones
 * the real engines produce too (':' in vLLM/SGLang names, TGI's counters without _total).
 */
class PromtoolTest {

    private static final List<String> ACCEPTED_LINT = List.of(
            "metric names should not contain ':'",
            "counter metrics should have \"_total\" suffix",
            "non-counter metrics should not have \"_total\" suffix",
            "non-histogram and non-summary metrics should not have \"_count\" suffix");

    @ParameterizedTest(name = "{0}")
    @EnumSource(MetricsDialect.class)
    void promtoolAcceptsTheMetrics(MetricsDialect dialect) throws Exception {
        String promtool = findPromtool();
        List<SimRequest> all = new ArrayList<>();
        EngineConfig cfg = EngineConfig.defaults().withAdapters(List.of("a", "b"), 1);
        EngineCore engine = new EngineCore(cfg, dialect, 1_700_000_000_000_000_000L, 1.0);
        VirtualTimeRunner runner = new VirtualTimeRunner(engine);
        for (int i = 0; i < 6; i++) {
            all.add(engine.submit(i % 2 == 0 ? "a" : "b", Calibration.distinctPrompt(i, 300), 40, 0, null));
        }
        runner.runUntil(500_000_000L);
        String text = dialect.render(engine, runner.now());

        Path file = Files.createTempFile("metrics-" + dialect.cliName(), ".prom");
        Files.writeString(file, text);
        Process p = new ProcessBuilder(promtool, "check", "metrics").redirectInput(file.toFile())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        Files.delete(file);
        int rc = p.exitValue();
        assertThat(rc).as("promtool output:%n%s", out).isIn(0, 3);
        for (String line : out.split("\n")) {
            if (!line.isBlank()) {
                assertThat(ACCEPTED_LINT.stream().anyMatch(line::endsWith)).as("promtool finding: " + line).isTrue();
            }
        }
    }

    private static String findPromtool() throws IOException {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
            Path p = Path.of(dir, "promtool");
            if (Files.isExecutable(p)) {
                return p.toString();
            }
        }
        fail("promtool not found on PATH: install the Debian package 'prometheus' (apt-get install prometheus)");
        return null;
    }
}
