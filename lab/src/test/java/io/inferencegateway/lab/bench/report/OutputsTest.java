package io.inferencegateway.lab.bench.report;

import static io.inferencegateway.lab.bench.report.ReportFixtures.run;
import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import javax.imageio.ImageIO;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** The shape of what the bench writes: Markdown tables, JSON per run, PNG charts. */
class OutputsTest {

    @TempDir
    Path dir;

    private final List<RunReport> scenario = List.of(
            run("shared-prefix", "round-robin", 100, 10, 0),
            run("shared-prefix", "least-request", 100, 5, 0),
            run("shared-prefix", "gpu-aware", 100, 2, 4));

    @Test
    void markdownHasOneRowPerPolicyAndRatiosToRoundRobin() {
        String md = MarkdownReport.scenarioSection(scenario);
        List<String> rows = md.lines().filter(l -> l.startsWith("| ")).toList();
        assertThat(rows).hasSize(4); // header + 3 policies
        assertThat(rows.get(0)).contains("TTFT mean", "TTFT p50", "TTFT p90", "TTFT p99", "ITL p50", "ITL p99",
                "E2E p99", "output tok/s", "errors", "TTFT p99 vs RR");
        int columns = rows.get(0).split("\\|").length;
        assertThat(rows).allSatisfy(r -> assertThat(r.split("\\|")).hasSize(columns));
        assertThat(md).contains("## shared-prefix");
        assertThat(rows.get(1)).startsWith("| round-robin | 100 | 505 ms | 500 ms | 900 ms | 990 ms |")
                .contains("1.00× (±0%)");
        // gpu-aware: TTFT a fifth of round-robin's, 4 errors
        assertThat(rows.get(3)).startsWith("| gpu-aware | 104 |").contains("| 4 |").contains("0.20× (−80%)");
        assertThat(md).contains("speeds 1.0, 0.5, 1.0, 0.5");
    }

    @Test
    void markdownWarnsWhenTheGeneratorFellBehind() {
        assertThat(MarkdownReport.scenarioSection(scenario)).doesNotContain("Warning");
        RunReport lagging = run("x", "gpu-aware", 100, 1, 0, 20); // 20 ms send lag against a 99 ms p99 TTFT
        assertThat(MarkdownReport.scenarioSection(List.of(lagging)))
                .contains("Warning: in the gpu-aware run the load generator sent its p99 request 20 ms late");
    }

    @Test
    void markdownWithoutBaselineSaysSo() {
        String md = MarkdownReport.scenarioSection(List.of(run("x", "gpu-aware", 10, 1, 0)));
        assertThat(md).doesNotContain("vs RR").contains("No round-robin run");
    }

    @Test
    void documentHoldsEveryScenario() {
        String md = MarkdownReport.document("Routing benchmark", "bench --scenario a,b",
                List.of(scenario, List.of(run("uniform", "round-robin", 10, 1, 0))));
        assertThat(md).startsWith("# Routing benchmark").contains("`bench --scenario a,b`")
                .contains("## shared-prefix").contains("## uniform");
    }

    @Test
    void timesAreShortAndHuman() {
        assertThat(MarkdownReport.time(4.214)).isEqualTo("4.21 ms");
        assertThat(MarkdownReport.time(812.4)).isEqualTo("812 ms");
        assertThat(MarkdownReport.time(4400)).isEqualTo("4.40 s");
        assertThat(MarkdownReport.time(Double.NaN)).isEqualTo("–");
    }

    @Test
    void jsonCarriesSettingsSummaryGeneratorAndEveryRequest() throws Exception {
        Path file = dir.resolve("shared-prefix/gpu-aware.json");
        JsonReport.write(scenario.get(2), file);
        JsonNode json = new ObjectMapper().readTree(file.toFile());
        assertThat(json.path("scenario").asText()).isEqualTo("shared-prefix");
        assertThat(json.path("policy").asText()).isEqualTo("gpu-aware");
        assertThat(json.path("seed").asLong()).isEqualTo(42);
        assertThat(json.path("timeScale").asDouble()).isEqualTo(2.0);
        assertThat(json.path("fleet").path("pods")).hasSize(4);
        assertThat(json.path("fleet").path("pods").get(2).path("speedFactor").asDouble()).isEqualTo(1.0);
        JsonNode summary = json.path("summary");
        assertThat(summary.path("requests").asInt()).isEqualTo(104);
        assertThat(summary.path("errors").asInt()).isEqualTo(4);
        assertThat(summary.path("outcomes").path("HTTP_ERROR").asInt()).isEqualTo(4);
        assertThat(summary.path("ttftMs").path("p99").asDouble()).isEqualTo(198.0);
        assertThat(summary.path("itlMs").path("p50").asDouble()).isEqualTo(10.0);
        assertThat(summary.path("e2eMs").has("p99")).isTrue();
        assertThat(summary.path("outputTokensPerSecond").isNumber()).isTrue();
        assertThat(json.path("generator").path("sendLagMs").path("p99").isNumber()).isTrue();
        JsonNode requests = json.path("requests");
        assertThat(requests).hasSize(104);
        assertThat(requests.get(0).path("ttftMs").asDouble()).isEqualTo(2.0);
        assertThat(requests.get(103).path("ttftMs").isNull()).isTrue();
        assertThat(requests.get(103).path("status").asInt()).isEqualTo(429);
        assertThat(requests.get(103).path("error").asText()).isEqualTo("HTTP 429");
    }

    @Test
    void chartsArePngFiles() throws Exception {
        Path cdf = dir.resolve("shared-prefix/ttft-cdf.png");
        Charts.ttftCdf(scenario, cdf);
        Path bars = dir.resolve("ttft-p99.png");
        Charts.p99Bars(List.of(scenario, List.of(run("uniform", "round-robin", 10, 1, 0),
                run("uniform", "gpu-aware", 10, 1, 0))), bars);
        for (Path png : List.of(cdf, bars)) {
            assertThat(Files.size(png)).isGreaterThan(5_000);
            BufferedImage image = ImageIO.read(png.toFile());
            assertThat(image).as(png.toString()).isNotNull();
            assertThat(image.getWidth()).isGreaterThanOrEqualTo(900);
        }
    }

    @Test
    void cdfPointsAreCappedAndEndAtOne() {
        double[][] xy = Charts.cdfPoints(RunSummary.ttftOf(run("x", "p", 1000, 1, 0).recording().results()));
        assertThat(xy[0]).hasSize(400);
        assertThat(xy[1][399]).isEqualTo(1.0);
        assertThat(xy[0][0]).isEqualTo(1.0);
        assertThat(xy[0][399]).isEqualTo(1000.0);
    }
}
