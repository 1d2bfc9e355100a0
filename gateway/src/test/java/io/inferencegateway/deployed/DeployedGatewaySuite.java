package io.inferencegateway.deployed;

import static io.inferencegateway.testing.GatewayHarness.quotedList;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.http.StreamResponse;
import com.openai.errors.NotFoundException;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionStreamOptions;
import com.openai.models.completions.Completion;
import com.openai.models.completions.CompletionCreateParams;
import com.openai.models.embeddings.CreateEmbeddingResponse;
import com.openai.models.embeddings.EmbeddingCreateParams;
import com.openai.models.models.Model;

import io.inferencegateway.simulator.FleetOptions;
import io.inferencegateway.simulator.SimulatedFleet;
import io.inferencegateway.testing.MockCluster;
import io.inferencegateway.testing.OtlpCollector;
import io.inferencegateway.testing.TestUpstream;

/**
 * One end-to-end suite for every runtime the gateway is deployed on. A subclass starts the gateway in a process of
 * its own; the suite then uses only what a deployed gateway exposes, over real sockets: the OpenAI API (through the
 * official SDK), {@code /ready}, {@code /metrics}, its mounted config file and the Kubernetes API it watches.
 * <p>
 * In front of the gateway: a simulated vLLM fleet with LoRA adapters (pool {@code llama}), a {@link TestUpstream}
 * that paces a chat stream (pool {@code paced}), and fabric8's mock API server whose pod makes up pool {@code qwen}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class DeployedGatewaySuite {

    static final String MODEL = "meta-llama/Llama-3.1-8B-Instruct";
    static final String PACED_MODEL = "paced-model";
    static final String DISCOVERED_MODEL = "qwen";
    static final String NAMESPACE = "models";
    static final Map<String, String> QWEN_LABELS = Map.of("app", "qwen");
    static final int STREAM_EVENTS = 5;
    static final long STREAM_GAP_MILLIS = 400;
    // a bound, not a goal: changes apply within a second here, but a busy 2-core machine can stall a few seconds
    static final Duration SEEN = Duration.ofSeconds(20);

    private SimulatedFleet fleet;
    private TestUpstream paced;
    private TestUpstream podServer;
    private MockCluster cluster;
    private OtlpCollector collector;
    private Path workDir;
    private DeployedGateway gateway;
    private OpenAIClient client;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    /** Starts the gateway under test on {@code configYaml} with extra Camel properties; it serves when this returns. */
    abstract DeployedGateway deploy(Path workDir, String configYaml, Map<String, String> properties) throws Exception;

    /** A short name for the runtime, used for the work directory and the timing report. */
    abstract String runtime();

    @BeforeAll
    void deployTheGateway() throws Exception {
        fleet = SimulatedFleet.start(FleetOptions.builder().pods(2).loras(2).timeScale(20).build());
        paced = new TestUpstream();
        podServer = new TestUpstream();
        cluster = new MockCluster();
        collector = new OtlpCollector();
        cluster.createPod(NAMESPACE, "qwen-0", QWEN_LABELS, "127.0.0.1", true);
        workDir = Path.of("target", "runtime-it", runtime()).toAbsolutePath();
        deleteTree(workDir);
        Files.createDirectories(workDir);
        gateway = deploy(workDir, config(""), Map.of(
                "gateway.kubernetes.masterUrl", cluster.masterUrl(),
                "gateway.kubernetes.resyncPeriod", "10000"));
        client = OpenAIOkHttpClient.builder().baseUrl(gateway.baseUrl() + "/v1").apiKey("unused").maxRetries(0)
                .build();
    }

    @AfterAll
    void stopEverything() throws Exception {
        if (gateway != null) {
            gateway.close();
        }
        for (AutoCloseable c : new AutoCloseable[] {cluster, podServer, paced, fleet, collector}) {
            if (c != null) {
                c.close();
            }
        }
    }

    DeployedGateway gateway() {
        return gateway;
    }

    private String config(String extraSchedulers) {
        return """
                apiVersion: inferencegateway.io/v1alpha1
                kind: InferenceGatewayConfig
                metadata: {name: runtimes}
                spec:
                  observability:
                    tracing: {otlpEndpoint: "%s", serviceName: "gateway-%s"}
                  schedulers:
                    - name: llama
                      modelName: %s
                      loraAdapters: [%s]
                      endpoints: [%s]
                    - name: paced
                      modelName: %s
                      policy: round-robin
                      routeTimeout: 30s
                      endpoints: ["%s"]
                    - name: qwen
                      modelName: %s
                      namespace: %s
                      modelSelector: {matchLabels: {app: qwen}}
                      targetPort: %d
                      policy: round-robin
                      routeTimeout: 10s
                """.formatted(collector.baseUrl(), runtime(), MODEL, String.join(", ", fleet.adapterNames()),
                quotedList(fleet.endpoints()),
                PACED_MODEL, paced.address(), DISCOVERED_MODEL, NAMESPACE, podServer.port()) + extraSchedulers;
    }

    @Test
    void chatCompletion() {
        ChatCompletion c = client.chat().completions().create(ChatCompletionCreateParams.builder().model(MODEL)
                .addUserMessage("hello").maxCompletionTokens(6).build());
        assertThat(c.model()).isEqualTo(MODEL);
        assertThat(c.choices().get(0).message().content()).hasValueSatisfying(t -> assertThat(t).isNotBlank());
        assertThat(c.usage()).hasValueSatisfying(u -> assertThat(u.completionTokens()).isEqualTo(6));
    }

    @Test
    void eachStreamedEventReachesTheClientBeforeTheNextIsProduced() throws IOException {
        paced.behave(new TestUpstream.ChatSse(PACED_MODEL, STREAM_EVENTS, STREAM_GAP_MILLIS));
        List<String> expected = IntStream.range(0, STREAM_EVENTS).mapToObj(TestUpstream::chatChunkContent).toList();
        OpenAIClient direct = OpenAIOkHttpClient.builder().baseUrl("http://" + paced.address() + "/v1")
                .apiKey("unused").maxRetries(0).build();

        StringBuilder report = new StringBuilder("streamed chat of " + STREAM_EVENTS + " events " + STREAM_GAP_MILLIS
                + " ms apart on " + runtime() + ": ms from the upstream's write of each event to the SDK's chunk\n");
        for (String run : List.of("first stream", "second stream")) {
            StreamTiming through = stream(client);
            assertThat(through.deltas).containsExactlyElementsOf(expected);
            assertThat(through.produced).hasSize(STREAM_EVENTS);
            for (int i = 0; i + 1 < STREAM_EVENTS; i++) {
                assertThat(through.arrived.get(i))
                        .as("%s: event %d reached the client before event %d was produced", run, i, i + 1)
                        .isLessThan(through.produced.get(i + 1));
            }
            // the same stream without the gateway, for comparison
            StreamTiming baseline = stream(direct);
            report.append("  %-13s through the gateway %s%n".formatted(run, through.latenciesMillis()))
                    .append("  %-13s direct              %s%n".formatted("", baseline.latenciesMillis()));
        }
        Files.writeString(workDir.resolve("streaming-timing.txt"), report);
        System.out.print(report);
    }

    /** When each chunk of one paced stream was produced upstream and parsed by the SDK (System.nanoTime()). */
    private record StreamTiming(List<String> deltas, List<Long> produced, List<Long> arrived) {
        List<String> latenciesMillis() {
            return IntStream.range(0, Math.min(produced.size(), arrived.size()))
                    .mapToObj(i -> "%.2f".formatted((arrived.get(i) - produced.get(i)) / 1e6)).toList();
        }
    }

    private StreamTiming stream(OpenAIClient via) {
        int before = paced.received().size();
        List<String> deltas = new ArrayList<>();
        List<Long> arrived = new ArrayList<>();
        try (StreamResponse<ChatCompletionChunk> stream = via.chat().completions().createStreaming(
                ChatCompletionCreateParams.builder().model(PACED_MODEL).addUserMessage("count").build())) {
            stream.stream().forEach(chunk -> {
                arrived.add(System.nanoTime());
                chunk.choices().forEach(ch -> ch.delta().content().ifPresent(deltas::add));
            });
        }
        assertThat(paced.received()).hasSize(before + 1);
        return new StreamTiming(deltas, paced.received().get(before).eventNanos(), arrived);
    }

    @Test
    void streamedChatArrivesTokenByTokenWithItsUsage() {
        List<String> deltas = new ArrayList<>();
        long[] usage = {-1};
        try (StreamResponse<ChatCompletionChunk> stream = client.chat().completions().createStreaming(
                ChatCompletionCreateParams.builder().model(MODEL).addUserMessage("tell me").maxCompletionTokens(9)
                        .streamOptions(ChatCompletionStreamOptions.builder().includeUsage(true).build()).build())) {
            stream.stream().forEach(chunk -> {
                chunk.choices().forEach(ch -> ch.delta().content().filter(t -> !t.isEmpty()).ifPresent(deltas::add));
                chunk.usage().ifPresent(u -> usage[0] = u.completionTokens());
            });
        }
        assertThat(deltas).hasSize(9);
        assertThat(usage[0]).isEqualTo(9);
    }

    @Test
    void completions() {
        Completion c = client.completions().create(CompletionCreateParams.builder()
                .model(CompletionCreateParams.Model.of(MODEL)).prompt("abcd").maxTokens(3).build());
        assertThat(c.choices().get(0).text()).hasSize(12); // three tokens of four characters
    }

    @Test
    void chatWithALoraAdapterIsServedByTheBaseModelsPool() {
        String adapter = fleet.adapterNames().get(0);
        ChatCompletion c = client.chat().completions().create(ChatCompletionCreateParams.builder().model(adapter)
                .addUserMessage("hello").maxCompletionTokens(3).build());
        assertThat(c.model()).isEqualTo(adapter);
        assertThat(c.usage()).hasValueSatisfying(u -> assertThat(u.completionTokens()).isEqualTo(3));
    }

    @Test
    void embeddings() {
        CreateEmbeddingResponse r = client.embeddings().create(EmbeddingCreateParams.builder()
                .model(MODEL).input("embed this").build());
        assertThat(r.data()).hasSize(1);
        assertThat(r.data().get(0).embedding()).isNotEmpty();
    }

    @Test
    void modelsListNamesEveryConfiguredModelAndAdapter() {
        List<Model> models = client.models().list().data();
        assertThat(models).extracting(Model::id).containsExactly(MODEL, fleet.adapterNames().get(0),
                fleet.adapterNames().get(1), PACED_MODEL, DISCOVERED_MODEL);
        assertThat(models.get(1)._additionalProperties().get("parent").asString()).hasValue(MODEL);
    }

    @Test
    void anUnknownModelIsTheSdksNotFoundErrorWithCodeModelNotFound() {
        assertThatThrownBy(() -> client.chat().completions().create(ChatCompletionCreateParams.builder()
                .model("gpt-9").addUserMessage("hello").build()))
                .isInstanceOfSatisfying(NotFoundException.class, e -> {
                    assertThat(e.statusCode()).isEqualTo(404);
                    assertThat(e.code()).hasValue("model_not_found");
                    assertThat(e.getMessage()).contains("gpt-9");
                });
    }

    @Test
    void metricsExposeTheGatewaysMetersInThePrometheusFormat() throws Exception {
        HttpResponse<String> r = get("/metrics");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("content-type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/plain"));
        assertThat(r.body()).contains("inference_gateway_pool_endpoints{pool=\"llama\"} 2.0",
                "inference_gateway_pool_endpoints{pool=\"paced\"} 1.0",
                "inference_gateway_requests_in_flight{pool=\"llama\"}",
                "inference_gateway_scheduler_fallback{pool=\"llama\"}");
        // the pools' servers are scraped every 50 ms
        await().atMost(SEEN).until(() -> scrapes("succeeded") > 0);
    }

    @Test
    void requestMetersCountWhatWasServed() throws Exception {
        client.chat().completions().create(ChatCompletionCreateParams.builder().model(MODEL)
                .addUserMessage("count me").maxCompletionTokens(3).build());
        await().atMost(SEEN).untilAsserted(() -> assertThat(get("/metrics").body())
                .containsPattern("(?m)^inference_objective_request_total\\{[^}]*model_name=\"" + Pattern.quote(MODEL)
                        + "\"[^}]*status=\"200\"[^}]*} [1-9]")
                .containsPattern("(?m)^inference_objective_request_ttft_seconds_count\\{[^}]*pool=\"llama\"[^}]*} [1-9]")
                .containsPattern("(?m)^inference_objective_output_tokens_sum\\{[^}]*pool=\"llama\"[^}]*} [1-9]"));
    }

    /** Scrapes with this result, summed over the pools' pods. */
    private double scrapes(String result) throws Exception {
        Matcher m = Pattern.compile("(?m)^inference_gateway_metrics_scrapes_total\\{[^}]*result=\"" + result
                + "\"[^}]*} (\\S+)$").matcher(get("/metrics").body());
        double sum = 0;
        while (m.find()) {
            sum += Double.parseDouble(m.group(1));
        }
        return sum;
    }

    /** The OpenTelemetry SDK and its JDK-HttpClient exporter load and export on this runtime. */
    @Test
    void aClientsTraceReachesTheCollectorAndTheModelServerSeesTheGatewaysSpanAsItsParent() {
        String traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
        String clientSpan = "00f067aa0ba902b7";
        paced.behave(new TestUpstream.ChatSse(PACED_MODEL, 2, 10));
        int before = paced.received().size();
        try (StreamResponse<ChatCompletionChunk> stream = client.chat().completions().createStreaming(
                ChatCompletionCreateParams.builder().model(PACED_MODEL).addUserMessage("trace me")
                        .putAdditionalHeader("traceparent", "00-" + traceId + "-" + clientSpan + "-01").build())) {
            stream.stream().forEach(chunk -> { });
        }
        String sent = paced.received().get(before).headers().get("traceparent");
        assertThat(sent).startsWith("00-" + traceId + "-").endsWith("-01").doesNotContain(clientSpan);

        await().atMost(SEEN).until(() -> collector.trace(traceId).size() >= 4);
        List<OtlpCollector.ReceivedSpan> spans = collector.trace(traceId);
        assertThat(spans).extracting(OtlpCollector.ReceivedSpan::name).contains("POST /v1/chat/completions", "parse",
                "pick", "chat " + PACED_MODEL);
        assertThat(spans).allMatch(s -> s.serviceName().equals("gateway-" + runtime()));
        assertThat(spans).filteredOn(s -> s.name().equals("POST /v1/chat/completions")).singleElement()
                .satisfies(root -> assertThat(root.parentSpanId()).isEqualTo(clientSpan));
        assertThat(spans).filteredOn(s -> s.name().equals("chat " + PACED_MODEL)).singleElement()
                .satisfies(call -> assertThat(sent).contains("-" + call.spanId() + "-"));
    }

    @Test
    void readyWhileEveryPoolHasAnEndpoint() {
        await().atMost(SEEN).untilAsserted(() -> {
            HttpResponse<String> r = get("/ready");
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.body()).isEqualTo("{\"status\":\"ready\"}");
        });
    }

    @Test
    void anEditedConfigServesItsNewModelAndTheOldOneComesBack() throws Exception {
        String reloaded = """
                    - name: reloaded
                      modelName: reloaded-model
                      policy: round-robin
                      endpoints: ["%s"]
                """.formatted(podServer.address());
        assertThat(chatStatus("reloaded-model")).isEqualTo(404);

        try {
            gateway.updateConfig(config(reloaded));
            awaitChatStatus("reloaded-model", 200);
            assertThat(client.models().list().data()).extracting(Model::id).contains("reloaded-model");
        } finally {
            gateway.updateConfig(config(""));
        }
        awaitChatStatus("reloaded-model", 404);
        assertThat(client.models().list().data()).extracting(Model::id).doesNotContain("reloaded-model");
    }

    @Test
    void theDiscoveredPoolFollowsItsPodsReadiness() throws Exception {
        awaitChatStatus(DISCOVERED_MODEL, 200);
        assertThat(podServer.received()).isNotEmpty();

        try {
            cluster.setReady(NAMESPACE, "qwen-0", false);
            awaitChatStatus(DISCOVERED_MODEL, 503);
            assertThat(get("/metrics").body()).contains("inference_gateway_pool_endpoints{pool=\"qwen\"} 0.0");
            assertThat(get("/ready").statusCode()).isEqualTo(503);
        } finally {
            cluster.setReady(NAMESPACE, "qwen-0", true);
        }
        awaitChatStatus(DISCOVERED_MODEL, 200);
        assertThat(get("/metrics").body()).contains("inference_gateway_pool_endpoints{pool=\"qwen\"} 1.0");
    }

    /** Waits until a chat request for {@code model} is answered with {@code status}. */
    private void awaitChatStatus(String model, int status) {
        await().atMost(SEEN).untilAsserted(() -> assertThat(chatStatus(model)).as("status of a chat with %s", model)
                .isEqualTo(status));
    }

    private int chatStatus(String model) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/v1/chat/completions"))
                .timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"" + model
                        + "\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"max_tokens\":2}"))
                .build();
        return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + path)).timeout(Duration.ofSeconds(10))
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
