package io.inferencegateway.monitoring;

import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.http.StreamResponse;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionStreamOptions;

import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.simulator.FleetOptions;
import io.inferencegateway.simulator.SimulatedFleet;
import io.inferencegateway.testing.GatewayHarness;
import io.inferencegateway.testing.TestUpstream;

/**
 * A real gateway over simulated vLLM pods with traffic of the kinds the dashboard and alerts show: pool {@code llama}
 * (two pods on a slow simulated GPU, so a first token takes a noticeable time), and pool {@code dead}, whose only
 * endpoint refuses connections, so its requests fail and its scheduler stays in fallback. On demand
 * ({@link #startGlobalTier}) a global tier runs in front of it (docs/global.md): that gateway is its home cluster, and
 * a provider stub in another region serves a model the cluster does not, so that requests spill.
 */
final class ObservedFleet implements AutoCloseable {

    static final String MODEL = "meta-llama/Llama-3.1-8B-Instruct";
    static final String DEAD_MODEL = "dead-model";
    /** A model rewrite of the pool's model and its first adapter, with a rollout between them. */
    static final String REWRITE = "observed";
    /** The model only the global tier's provider serves. */
    static final String OVERFLOW_MODEL = "overflow-model";
    /** The system prompt the prefix-aware requests share (long enough to fill several KV blocks). */
    static final String SYSTEM = "You answer questions for the support desk of a bicycle shop, briefly. ".repeat(40);

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    final SimulatedFleet fleet;
    final GatewayHarness gateway;
    final OpenAIClient client;
    TestUpstream provider;
    GatewayHarness tier;

    private ObservedFleet(SimulatedFleet fleet, GatewayHarness gateway) {
        this.fleet = fleet;
        this.gateway = gateway;
        this.client = OpenAIOkHttpClient.builder().baseUrl(gateway.baseUrl() + "/v1").apiKey("unused").maxRetries(0)
                .timeout(Duration.ofSeconds(30)).build();
    }

    /** @param speed the simulated GPU's speed factor (1 = H100; 0.05 makes one engine step about 140 ms) */
    static ObservedFleet start(double speed) throws Exception {
        SimulatedFleet fleet = SimulatedFleet.start(FleetOptions.builder().pods(2).loras(1).speeds(speed)
                .model(MODEL).build());
        try {
            String config = """
                    kind: InferenceGatewayConfig
                    spec:
                      schedulers:
                        - name: llama
                          modelName: %s
                          loraAdapters: [%s]
                          endpoints: [%s]
                          metricsInterval: 100ms
                          streamUsage: true
                        - name: dead
                          modelName: %s
                          endpoints: ["127.0.0.1:%d"]
                          metricsInterval: 100ms
                          routeTimeout: 2s
                      modelRewrites:
                        - name: %s
                          rules: [{targets: [{model: %s, weight: 90}, {model: %s, weight: 10}]}]
                          rollout:
                            baseline: %s
                            candidate: %s
                            steps: [{weight: 10, duration: 1h}, {weight: 100}]
                    """.formatted(MODEL, String.join(", ", fleet.adapterNames()),
                    GatewayHarness.quotedList(fleet.endpoints()), DEAD_MODEL, GatewayHarness.freePort(), REWRITE,
                    MODEL, fleet.adapterNames().get(0), MODEL, fleet.adapterNames().get(0));
            return new ObservedFleet(fleet, GatewayHarness.start(config));
        } catch (Exception | Error e) {
            fleet.close();
            throw e;
        }
    }

    /**
     * A chat for rewrite {@code observed}, whose first request makes its rollout join (docs/rollouts.md, "Automatic
     * canary"), so that the rollout meters are exported.
     */
    void joinARollout() {
        client.chat().completions().create(ChatCompletionCreateParams.builder().model(REWRITE)
                .addUserMessage("which version?").maxCompletionTokens(2).build());
    }

    /** A plain chat completion; returns the client's time to the whole answer, in seconds. */
    double chat(String question) {
        long start = System.nanoTime();
        ChatCompletion c = client.chat().completions().create(ChatCompletionCreateParams.builder().model(MODEL)
                .addSystemMessage(SYSTEM).addUserMessage(question).maxCompletionTokens(2).build());
        if (c.choices().isEmpty()) {
            throw new AssertionError("no choices in " + c);
        }
        return (System.nanoTime() - start) / 1e9;
    }

    /**
     * A streamed chat completion (without include_usage: the pool's streamUsage asks for it); returns the client's
     * time to the first content delta, in seconds.
     */
    double chatStream(String question, boolean includeUsage) {
        long start = System.nanoTime();
        long[] first = {0};
        ChatCompletionCreateParams.Builder params = ChatCompletionCreateParams.builder().model(MODEL)
                .addSystemMessage(SYSTEM).addUserMessage(question).maxCompletionTokens(3);
        if (includeUsage) {
            params.streamOptions(ChatCompletionStreamOptions.builder().includeUsage(true).build());
        }
        try (StreamResponse<ChatCompletionChunk> stream = client.chat().completions().createStreaming(params.build())) {
            stream.stream().forEach(chunk -> chunk.choices().forEach(ch -> ch.delta().content()
                    .filter(s -> !s.isEmpty()).ifPresent(s -> {
                        if (first[0] == 0) {
                            first[0] = System.nanoTime();
                        }
                    })));
        }
        if (first[0] == 0) {
            throw new AssertionError("the stream had no content");
        }
        return (first[0] - start) / 1e9;
    }

    /** A chat to the dead pool over plain HTTP; returns the status (502: no pod could be reached). */
    int chatToTheDeadPool() throws Exception {
        String body = "{\"model\":\"" + DEAD_MODEL + "\",\"max_tokens\":2,"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"hello\"}]}";
        return HTTP.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/v1/chat/completions"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    /**
     * A plain chat with generous latency targets (x-slo-ttft-ms, x-slo-tpot-ms) over plain HTTP, which the SLO
     * counters judge; returns the status.
     */
    int chatWithTargets(String question) throws Exception {
        String body = "{\"model\":\"" + MODEL + "\",\"max_tokens\":2,"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"" + question + "\"}]}";
        return HTTP.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/v1/chat/completions"))
                .header("Content-Type", "application/json").header("x-slo-ttft-ms", "60000")
                .header("x-slo-tpot-ms", "10000").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    /** Streamed and plain chats, alternating; returns the client's times to first token. */
    List<Double> mixedTraffic(int requests, String tag) {
        List<Double> ttfts = new ArrayList<>();
        for (int i = 0; i < requests; i++) {
            String q = tag + " question " + i;
            ttfts.add(switch (i % 3) {
                case 0 -> chatStream(q, false);
                case 1 -> chatStream(q, true);
                default -> chat(q);
            });
        }
        return ttfts;
    }

    /**
     * Starts a global tier whose home cluster is this gateway and whose provider, in another region, serves
     * {@link #OVERFLOW_MODEL} only; returns once the tier has read the cluster's capacity summary with a ready pod.
     */
    void startGlobalTier() throws Exception {
        provider = new TestUpstream().behave(TestUpstream.chatCompletion("vendor-small", 40, 2));
        tier = GatewayHarness.start("""
                kind: InferenceGatewayConfig
                spec:
                  global:
                    region: home
                    summaryInterval: 100ms
                    clusters:
                      - {name: local, url: "http://127.0.0.1:%d", region: home, price: {input: 0.1, output: 0.4}}
                    providers:
                      - {name: vendor, baseUrl: "http://%s/v1", region: away, models: {"%s": vendor-small},
                         price: {input: 1.0, output: 4.0}}
                  schedulers:
                    - {name: global, modelName: "%s"}
                    - {name: global-overflow, modelName: "%s"}
                """.formatted(gateway.port(), provider.address(), OVERFLOW_MODEL, MODEL, OVERFLOW_MODEL));
        Endpoint cluster = new Endpoint("127.0.0.1", gateway.port());
        await().atMost(Duration.ofSeconds(15)).until(() -> {
            var m = tier.server().gateway().metrics().latest(cluster);
            return m != null && m.cluster() != null && m.cluster().readyPods() > 0;
        });
    }

    /** A plain chat through the global tier; returns the status. */
    int chatThroughTheTier(String model) throws Exception {
        String body = "{\"model\":\"" + model + "\",\"max_tokens\":2,"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"hello from afar\"}]}";
        return HTTP.send(HttpRequest.newBuilder(URI.create(tier.baseUrl() + "/v1/chat/completions"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    /** The global tier's GET /metrics, empty without a tier. */
    String tierMetrics() throws Exception {
        if (tier == null) {
            return "";
        }
        return HTTP.send(HttpRequest.newBuilder(URI.create(tier.baseUrl() + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    /** Waits until the gateway holds a reading of every simulated pod's /metrics. */
    void awaitEveryPodScraped() {
        await().atMost(Duration.ofSeconds(15)).until(() -> fleet.endpoints().stream().map(Endpoint::parse)
                .allMatch(e -> gateway.server().gateway().metrics().latest(e) != null));
    }

    String gatewayMetrics() throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    @Override
    public void close() throws Exception {
        try {
            if (tier != null) {
                tier.close();
            }
            if (provider != null) {
                provider.close();
            }
        } finally {
            try {
                gateway.close();
            } finally {
                fleet.close();
            }
        }
    }
}
