package io.inferencegateway.monitoring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.inferencegateway.testing.DebianProgram;
import io.inferencegateway.testing.GatewayHarness;

/**
 * A real Prometheus (Debian's {@code prometheus}) scrapes a real gateway every second and evaluates the alert rules
 * (monitoring/alert-rules.yaml); after traffic through the gateway, PromQL over the gateway's histograms answers
 * through Prometheus' HTTP API, the dashboard's queries run, and the alerts for the broken pool go pending.
 */
class PrometheusScrapeTest {

    static final String TTFT_P50 =
            "histogram_quantile(0.5, sum by (le) (rate(inference_objective_request_ttft_seconds_bucket[1m])))";
    static final ObjectMapper JSON = new ObjectMapper();
    static final HttpClient HTTP = HttpClient.newHttpClient();

    static ObservedFleet observed;
    static Path dir;
    static Process prometheus;
    static String prometheusUrl;
    /** The client's times to first token of the requests sent after Prometheus' first scrape. */
    static List<Double> measured = new ArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        // a slow simulated GPU (one engine step ≈ 140 ms) makes the time to first token large against the
        // gateway's and the client's own few milliseconds
        observed = ObservedFleet.start(0.05);
        dir = Files.createTempDirectory("prometheus-e2e");
        startPrometheus(observed.gateway.port());

        // the histograms appear with their first observation: let Prometheus see them before the measured traffic,
        // so that rate() covers all of it
        observed.mixedTraffic(3, "warm-up");
        assertThat(observed.chatToTheDeadPool()).isEqualTo(502);
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250)).untilAsserted(() ->
                assertThat(query("sum(inference_objective_request_ttft_seconds_count)")).as("scraped").isNotEmpty());

        measured.addAll(observed.mixedTraffic(12, "measured"));
        for (int i = 0; i < 3; i++) {
            assertThat(observed.chatToTheDeadPool()).isEqualTo(502);
        }
        double served = Exposition.parse(observed.gatewayMetrics())
                .sum("inference_objective_request_ttft_seconds_count");
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250)).untilAsserted(() ->
                assertThat(value(query("sum(inference_objective_request_ttft_seconds_count)")))
                        .as("Prometheus has the last scrape").isGreaterThanOrEqualTo(served));
    }

    @AfterAll
    static void stop() throws Exception {
        try {
            if (prometheus != null) {
                prometheus.destroy();
                if (!prometheus.waitFor(20, TimeUnit.SECONDS)) {
                    prometheus.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            }
        } finally {
            if (observed != null) {
                observed.close();
            }
            if (dir != null) {
                try (Stream<Path> files = Files.walk(dir)) {
                    files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                }
            }
        }
    }

    @Test
    void theMedianTimeToFirstTokenAnswersThroughPrometheusAndAgreesWithTheClient() throws Exception {
        JsonNode result = query(TTFT_P50);
        assertThat(result).as(TTFT_P50).hasSize(1);
        double p50 = value(result);

        List<Double> sorted = measured.stream().sorted().toList();
        double clientMedian = sorted.get(sorted.size() / 2);
        // The gateway sees each first token before the client does, so its median is at most the client's: the
        // bucket interpolation can put the answer anywhere in the bucket holding that median, so at most the upper
        // edge of the bucket holding the client's. Below, the client's share of the time is a few milliseconds
        // against a first token of over 100 ms; half the client's median leaves room for a busy machine.
        List<Double> edges = bucketEdges(Exposition.parse(observed.gatewayMetrics()));
        double upper = edges.stream().filter(le -> le >= clientMedian).findFirst().orElse(Double.POSITIVE_INFINITY);
        double lower = edges.stream().filter(le -> le <= clientMedian / 2).reduce((a, b) -> b).orElse(0.0);
        assertThat(p50).as("TTFT p50 from Prometheus; client median %.3f s of %s, bucket edges %s", clientMedian,
                sorted, edges).isFinite().isPositive().isBetween(lower, upper);
    }

    @Test
    void everyDashboardQueryRunsOnPrometheusAndShowsTheTraffic() throws Exception {
        Exposition exported = Exposition.parse(observed.gatewayMetrics());
        List<String> empty = new ArrayList<>();
        for (MonitoringFiles.Query q : MonitoringFiles.dashboardQueries()) {
            if (q.grafanaVariable()) {
                continue; // label_values() is Grafana's, not PromQL
            }
            // as Grafana sends it with all pools selected
            String promql = q.expr().replace("$__rate_interval", "1m").replace("$pool", ".*");
            JsonNode answer = get("/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8));
            assertThat(answer.path("status").asText()).as("%s: %s -> %s", q.where(), promql, answer)
                    .isEqualTo("success");
            // a query over metrics the gateway exports has data after this traffic (DashboardMetricsTest says
            // which metrics are missing, if any)
            boolean allExported = PromQl.metricNames(q.expr()).stream().allMatch(n -> exported.problemWith(n) == null);
            if (allExported && answer.path("data").path("result").isEmpty()) {
                empty.add(q.where() + ": " + promql);
            }
        }
        assertThat(empty).as("dashboard queries without data").isEmpty();
    }

    @Test
    void theAlertRulesEvaluateCleanlyAndTheBrokenPoolsAlertsArePending() throws Exception {
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            List<String> rules = new ArrayList<>();
            for (JsonNode g : get("/api/v1/rules").path("data").path("groups")) {
                for (JsonNode r : g.path("rules")) {
                    rules.add(r.path("name").asText());
                    assertThat(r.path("health").asText()).as("%s: %s", r.path("name"), r.path("lastError"))
                            .isEqualTo("ok");
                }
            }
            assertThat(rules).hasSize(MonitoringFiles.alertQueries().size());
        });
        // pool dead's only endpoint refuses connections: no fresh metrics, every request fails
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            List<String> pending = new ArrayList<>();
            for (JsonNode a : get("/api/v1/alerts").path("data").path("alerts")) {
                pending.add(a.path("labels").path("alertname").asText() + "/" + a.path("labels").path("pool").asText()
                        + a.path("labels").path("name").asText() + "/" + a.path("state").asText());
            }
            assertThat(pending).contains("InferenceGatewaySchedulerFallback/dead/pending",
                    "InferenceGatewayHighErrorRate/dead/pending", "InferenceGatewayPoolHasNoReadyPods/dead/pending")
                    .noneMatch(a -> a.contains("/llama/"));
        });
    }

    // ---- Prometheus ----------------------------------------------------------------------------------

    private static void startPrometheus(int gatewayPort) throws Exception {
        String binary = DebianProgram.find("prometheus", "prometheus");
        int port = GatewayHarness.freePort();
        Path config = dir.resolve("prometheus.yml");
        Files.writeString(config, """
                global:
                  scrape_interval: 1s
                  scrape_timeout: 1s
                  evaluation_interval: 1s
                rule_files:
                  - "%s"
                scrape_configs:
                  - job_name: inference-gateway
                    static_configs:
                      - targets: ["127.0.0.1:%d"]
                """.formatted(MonitoringFiles.ALERT_RULES.toAbsolutePath(), gatewayPort));
        Path log = dir.resolve("prometheus.log");
        prometheus = new ProcessBuilder(binary, "--config.file=" + config, "--storage.tsdb.path=" + dir.resolve("data"),
                "--web.listen-address=127.0.0.1:" + port, "--log.level=warn")
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        prometheusUrl = "http://127.0.0.1:" + port;
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).ignoreExceptions()
                .untilAsserted(() -> {
                    assertThat(prometheus.isAlive()).as("prometheus runs; its log:%n%s", Files.readString(log))
                            .isTrue();
                    assertThat(HTTP.send(HttpRequest.newBuilder(URI.create(prometheusUrl + "/-/ready")).build(),
                            HttpResponse.BodyHandlers.discarding()).statusCode()).isEqualTo(200);
                });
    }

    private static JsonNode get(String pathAndQuery) throws IOException, InterruptedException {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(prometheusUrl + pathAndQuery)).build(),
                HttpResponse.BodyHandlers.ofString());
        return JSON.readTree(r.body());
    }

    /** An instant query's result vector. */
    private static JsonNode query(String promql) throws IOException, InterruptedException {
        JsonNode answer = get("/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8));
        assertThat(answer.path("status").asText()).as("%s -> %s", promql, answer).isEqualTo("success");
        return answer.path("data").path("result");
    }

    /** The value of a one-element result vector. */
    private static double value(JsonNode result) {
        assertThat(result).hasSize(1);
        return Double.parseDouble(result.get(0).path("value").get(1).asText());
    }

    /** The TTFT histogram's bucket upper edges, ascending. */
    private static List<Double> bucketEdges(Exposition metrics) {
        return metrics.samples().stream()
                .filter(s -> s.name().equals("inference_objective_request_ttft_seconds_bucket"))
                .map(s -> s.labels().replaceAll(".*le=\"([^\"]+)\".*", "$1"))
                .map(le -> le.equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(le))
                .distinct().sorted().toList();
    }
}
