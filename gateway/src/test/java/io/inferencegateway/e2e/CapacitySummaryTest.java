package io.inferencegateway.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.metrics.ClusterCapacity;
import io.inferencegateway.metrics.EndpointMetrics;
import io.inferencegateway.testing.GatewayHarness;
import io.inferencegateway.testing.TestUpstream;

/**
 * GET /capacity end to end (docs/global.md): a cluster gateway in front of three stub vLLM pods whose /metrics say
 * what the test wants, its summary read over HTTP with and without the cluster token, and a second gateway (a global
 * tier) that polls it through its normal scrape path as a pool of {@code engineType: inference-gateway}.
 */
class CapacitySummaryTest {

    static final String MODEL = "meta-llama/Llama-3.1-8B-Instruct";
    static final String TOKEN = "cluster-token-0123456789abcdef";
    static final HttpClient HTTP = HttpClient.newHttpClient();
    static final ObjectMapper JSON = new ObjectMapper();
    static final String OK = """
            {"id":"c1","object":"chat.completion","model":"%s","choices":[{"index":0,"message":{"role":"assistant",
            "content":"hi"},"finish_reason":"stop"}],"usage":{"prompt_tokens":3,"completion_tokens":1,"total_tokens":4}}
            """.formatted(MODEL).replace("\n", "");

    static TestUpstream roomy;
    static TestUpstream queued;
    static TestUpstream full;
    static Path tokenFile;
    static GatewayHarness cluster;
    static GatewayHarness global;

    @BeforeAll
    static void start() throws Exception {
        // room to spare, running sql-lora; a queue at the saturation threshold (5); a KV cache past it (0.8)
        roomy = new TestUpstream().metrics(vllm(1, 3, 0.2) + """
                vllm:lora_requests_info{max_lora="2",running_lora_adapters="sql-lora",waiting_lora_adapters=""} 1.7e9
                """).behave(new TestUpstream.Json(200, OK));
        queued = new TestUpstream().metrics(vllm(6, 8, 0.5));
        full = new TestUpstream().metrics(vllm(0, 2, 0.9));
        tokenFile = Files.createTempDirectory("cluster-token").resolve("token");
        Files.writeString(tokenFile, TOKEN + "\n");
        cluster = GatewayHarness.start("""
                kind: InferenceGatewayConfig
                spec:
                  cluster: {name: us-east, region: us-east-1, tokenFile: %s}
                  schedulers:
                    - name: llama
                      modelName: %s
                      loraAdapters: [sql-lora, ko-chat]
                      metricsStalenessThreshold: 10s
                      endpoints: ["%s", "%s", "%s"]
                """.formatted(tokenFile, MODEL, roomy.address(), queued.address(), full.address()));
        global = GatewayHarness.start("""
                kind: InferenceGatewayConfig
                spec:
                  schedulers:
                    - name: us-east
                      modelName: %s
                      engineType: inference-gateway
                      metricsInterval: 100ms
                      metricsStalenessThreshold: 10s
                      endpoints: ["127.0.0.1:%d"]
                """.formatted(MODEL, cluster.port()));
        // what the integrator's spec.global wiring does: the cluster credential, to inference-gateway pools only
        global.server().gateway().metricsScraper().authorization(
                pool -> pool.config().engine().equals("inference-gateway")
                        ? cluster.server().gateway().clusterToken().authorization() : null);
        await().atMost(Duration.ofSeconds(20)).until(() -> Double.valueOf(3.0).equals(series(get("/capacity", TOKEN))
                .get(row("ready_pods"))));
    }

    @AfterAll
    static void stop() throws Exception {
        for (AutoCloseable c : new AutoCloseable[] {global, cluster, roomy, queued, full}) {
            if (c != null) {
                c.close();
            }
        }
    }

    @Test
    void theSummaryReportsThePodsQueuesKvHeadroomAndSaturationAsTheGatewaySeesThem() throws Exception {
        HttpResponse<String> answer = get("/capacity", TOKEN);
        Map<String, Double> s = series(answer);

        assertThat(answer.headers().firstValue("content-type")).hasValueSatisfying(
                t -> assertThat(t).startsWith("text/plain; version=0.0.4"));
        assertThat(s).containsEntry("inference_gateway_capacity_info{version=\"1\",cluster=\"us-east\","
                + "region=\"us-east-1\"}", 1.0);
        assertThat(s).containsEntry(row("pods"), 3.0)
                .containsEntry(row("ready_pods"), 3.0)
                .containsEntry(row("queued_requests"), 7.0)
                .containsEntry(row("running_requests"), 13.0)
                .containsEntry(row("gateway_queued_requests"), 0.0);
        assertThat(s.get(row("kv_headroom"))).as("mean of 0.8, 0.5 and 0.1").isCloseTo(0.4667, within(1e-3));
        assertThat(s.get(row("saturation"))).as("the full queue and the full cache").isCloseTo(2 / 3.0,
                within(1e-9));
        assertThat(s.get(row("predicted_ttft_seconds"))).as("the predictor has not learned yet").isNaN();
    }

    @Test
    void failedRequestsShowInTheErrorRatioOfTheLastSeconds() throws Exception {
        roomy.behave(new TestUpstream.Json(500, "{\"error\":{\"message\":\"boom\"}}"));
        try {
            for (int i = 0; i < 2; i++) {
                assertThat(chat().statusCode()).isEqualTo(500);
            }
        } finally {
            roomy.behave(new TestUpstream.Json(200, OK));
        }
        for (int i = 0; i < 3; i++) {
            assertThat(chat().statusCode()).isEqualTo(200);
        }

        Map<String, Double> s = series(get("/capacity", TOKEN));

        assertThat(s.get(row("recent_requests"))).isGreaterThanOrEqualTo(5.0);
        assertThat(s.get(row("error_ratio"))).isCloseTo(2 / s.get(row("recent_requests")), within(1e-9));
        assertThat(s.get(row("ttft_seconds"))).as("answers were timed").isGreaterThan(0.0);
    }

    @Test
    void adaptersHaveRowsOfTheirOwnThatNameTheirBaseModelAndWhereTheyAreWarm() throws Exception {
        Map<String, Double> s = series(get("/capacity", TOKEN));

        String sql = "{model=\"sql-lora\",base_model=\"" + MODEL + "\"}";
        String ko = "{model=\"ko-chat\",base_model=\"" + MODEL + "\"}";
        assertThat(s).containsEntry("inference_gateway_capacity_ready_pods" + sql, 3.0)
                .containsEntry("inference_gateway_capacity_adapter_loaded_pods" + sql, 1.0)
                .containsEntry("inference_gateway_capacity_adapter_loaded_pods" + ko, 0.0)
                .doesNotContainKey("inference_gateway_capacity_queued_requests" + sql);
    }

    @Test
    void askingForAModelAnswersItsRowsOnly() throws Exception {
        Map<String, Double> llama = series(get("/capacity?model=" + MODEL.replace("/", "%2F"), TOKEN));
        Map<String, Double> other = series(get("/capacity?model=Qwen%2FQwen3-8B", TOKEN));

        assertThat(llama).containsKey(row("ready_pods"));
        assertThat(other.keySet()).as("the info series only").allMatch(k -> k.startsWith(
                "inference_gateway_capacity_info"));
    }

    @Test
    void theSummaryNeedsTheClusterTokenWhenOneIsConfigured() throws Exception {
        HttpResponse<String> none = get("/capacity", null);
        HttpResponse<String> wrong = get("/capacity", "not-" + TOKEN);

        assertThat(none.statusCode()).isEqualTo(401);
        assertThat(wrong.statusCode()).isEqualTo(401);
        JsonNode error = JSON.readTree(wrong.body()).get("error");
        assertThat(error.get("code").asText()).isEqualTo("invalid_api_key");
        assertThat(wrong.headers().firstValue("www-authenticate")).hasValue("Bearer");
        assertThat(get("/capacity", TOKEN).statusCode()).isEqualTo(200);
        assertThat(get("/metrics", null).statusCode()).as("/metrics stays as it was").isEqualTo(200);
    }

    @Test
    void aNewTokenInTheFileIsAcceptedAndTheOldOneRefused() throws Exception {
        String rotated = "cluster-token-rotated-fedcba9876543210";
        try {
            Files.writeString(tokenFile, rotated + "\n");
            await().atMost(Duration.ofSeconds(20)).until(() -> get("/capacity", rotated).statusCode() == 200);
            assertThat(get("/capacity", TOKEN).statusCode()).isEqualTo(401);
        } finally {
            Files.writeString(tokenFile, TOKEN + "\n");
            await().atMost(Duration.ofSeconds(20)).until(() -> get("/capacity", TOKEN).statusCode() == 200);
        }
    }

    @Test
    void aGlobalTierReadsTheClusterThroughItsScrapesAsOneLargeModelServer() {
        Endpoint us = new Endpoint("127.0.0.1", cluster.port());

        await().atMost(Duration.ofSeconds(20)).until(() -> {
            EndpointMetrics m = global.server().gateway().metrics().latest(us);
            return m != null && m.cluster() != null && m.cluster().readyPods() == 3;
        });
        EndpointMetrics m = global.server().gateway().metrics().latest(us);
        ClusterCapacity c = m.cluster();
        assertThat(m.waiting()).as("the pods' queues and the cluster gateway's").isEqualTo(7);
        assertThat(m.running()).isEqualTo(13);
        assertThat(m.kvUsage()).isCloseTo(1 - 0.4667, within(1e-3));
        assertThat(m.runningAdapters()).containsExactly("sql-lora");
        assertThat(c.cluster()).isEqualTo("us-east");
        assertThat(c.region()).isEqualTo("us-east-1");
        assertThat(c.pods()).isEqualTo(3);
        assertThat(c.saturation()).isCloseTo(2 / 3.0, within(1e-9));
        assertThat(c.adapters()).containsExactlyInAnyOrder("sql-lora", "ko-chat");
        assertThat(c.roundTripMillis()).as("measured by the poll").isGreaterThanOrEqualTo(0.0).isLessThan(5_000.0);
    }

    static String row(String name) {
        return "inference_gateway_capacity_" + name + "{model=\"" + MODEL + "\"}";
    }

    static String vllm(int waiting, int running, double kv) {
        return """
                vllm:num_requests_waiting{engine="0",model_name="m"} %d
                vllm:num_requests_running{engine="0",model_name="m"} %d
                vllm:kv_cache_usage_perc{engine="0",model_name="m"} %s
                """.formatted(waiting, running, kv);
    }

    static HttpResponse<String> get(String path, String token) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(cluster.baseUrl() + path));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    static HttpResponse<String> chat() throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(cluster.baseUrl() + "/v1/chat/completions"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"" + MODEL
                        + "\",\"messages\":[{\"role\":\"user\",\"content\":\"hello\"}]}"))
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The exposition's samples by series (name and labels as written), comments left out. */
    static Map<String, Double> series(HttpResponse<String> answer) {
        Map<String, Double> out = new HashMap<>();
        if (answer.statusCode() != 200) {
            return out;
        }
        for (String line : answer.body().split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int space = line.lastIndexOf(' ');
            out.put(line.substring(0, space), Double.valueOf(line.substring(space + 1)));
        }
        return out;
    }
}
