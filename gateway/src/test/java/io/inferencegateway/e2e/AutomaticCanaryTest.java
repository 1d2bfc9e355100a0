package io.inferencegateway.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.http.StreamResponse;
import com.openai.errors.InternalServerException;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;

import io.inferencegateway.simulator.FleetOptions;
import io.inferencegateway.simulator.SimulatedFleet;
import io.inferencegateway.testing.GatewayHarness;

/**
 * The automatic canary end to end (docs/rollouts.md, "Automatic canary"): clients on the OpenAI SDK ask for model
 * {@code llama}, a model rewrite sends them to {@code llama-v1} (the baseline) or {@code llama-v2} (the candidate),
 * each served by simulated vLLM pods, and the rollout moves the candidate's share by what it measures. What the test
 * reads is what a user would: the response's model, the SDK's errors, and GET /metrics.
 */
class AutomaticCanaryTest {

    static final String BASELINE = "llama-v1";
    static final String CANDIDATE = "llama-v2";
    /** A simulated GPU a tenth of an H100: an engine step takes ~70 ms, so a few ms of noise do not count. */
    static final double SPEED = 0.1;
    static final Pattern STATE = Pattern.compile(
            "inference_gateway_rollout_state\\{[^}]*rollout=\"llama\"[^}]*state=\"([a-z_]+)\"[^}]*} 1\\.0");
    static final HttpClient HTTP = HttpClient.newHttpClient();

    SimulatedFleet baseline;
    SimulatedFleet candidate;
    GatewayHarness gateway;
    final AtomicBoolean stop = new AtomicBoolean();
    final ExecutorService clients = Executors.newFixedThreadPool(8);
    final Map<String, AtomicLong> servedBy = new ConcurrentHashMap<>();
    final AtomicLong failed = new AtomicLong();

    @AfterEach
    void close() throws Exception {
        stop.set(true);
        clients.shutdownNow();
        if (gateway != null) {
            gateway.close();
        }
        if (candidate != null) {
            candidate.close();
        }
        if (baseline != null) {
            baseline.close();
        }
    }

    /** The two versions' pods, and a gateway whose rewrite rolls the candidate out: 20 % and 50 % for 1 s each. */
    void start(double candidateSpeed) throws Exception {
        baseline = SimulatedFleet.start(FleetOptions.builder().model(BASELINE).pods(1).speeds(SPEED).build());
        candidate = SimulatedFleet.start(FleetOptions.builder().model(CANDIDATE).pods(1).speeds(candidateSpeed)
                .build());
        gateway = GatewayHarness.start("""
                kind: InferenceGatewayConfig
                spec:
                  schedulers:
                    - {name: v1, modelName: %s, endpoints: [%s], metricsInterval: 100ms}
                    - {name: v2, modelName: %s, endpoints: [%s], metricsInterval: 100ms}
                  modelRewrites:
                    - name: llama
                      stickiness: request
                      rules:
                        - targets: [{model: %s, weight: 80}, {model: %s, weight: 20}]
                      rollout:
                        baseline: %s
                        candidate: %s
                        steps: [{weight: 20, duration: 1s}, {weight: 50, duration: 1s}, {weight: 100}]
                        analysis: {minSamples: 20, interval: 200ms}
                """.formatted(BASELINE, GatewayHarness.quotedList(baseline.endpoints()), CANDIDATE,
                GatewayHarness.quotedList(candidate.endpoints()), BASELINE, CANDIDATE, BASELINE, CANDIDATE));
    }

    /** Eight clients streaming short chats for {@code llama} until the test ends. */
    void traffic() {
        OpenAIClient client = OpenAIOkHttpClient.builder().baseUrl(gateway.baseUrl() + "/v1").apiKey("unused")
                .maxRetries(0).timeout(Duration.ofSeconds(30)).build();
        for (int c = 0; c < 8; c++) {
            int id = c;
            clients.execute(() -> {
                for (int i = 0; !stop.get(); i++) {
                    ask(client, "client " + id + " question " + i);
                }
            });
        }
    }

    /** One streamed chat; counts who served it, or that it failed. */
    String ask(OpenAIClient client, String question) {
        ChatCompletionCreateParams params = ChatCompletionCreateParams.builder().model("llama")
                .addUserMessage(question).maxCompletionTokens(3).build();
        try (StreamResponse<ChatCompletionChunk> stream = client.chat().completions().createStreaming(params)) {
            String model = stream.stream().map(ChatCompletionChunk::model).reduce((a, b) -> b).orElse("");
            servedBy.computeIfAbsent(model, m -> new AtomicLong()).incrementAndGet();
            return model;
        } catch (InternalServerException e) {
            failed.incrementAndGet();
            return null;
        } catch (RuntimeException e) {
            if (!stop.get()) {
                failed.incrementAndGet();
            }
            return null;
        }
    }

    String metrics() throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    String state() throws Exception {
        Matcher m = STATE.matcher(metrics());
        return m.find() ? m.group(1) : null;
    }

    double sample(String name, String labels) throws Exception {
        Matcher m = Pattern.compile(Pattern.quote(name) + "\\{" + labels + "} ([0-9.eE+-]+)").matcher(metrics());
        return m.find() ? Double.parseDouble(m.group(1)) : Double.NaN;
    }

    long served(String model) {
        AtomicLong n = servedBy.get(model);
        return n == null ? 0 : n.get();
    }

    /** After the verdict, with traffic stopped: who serves the next requests. */
    List<String> nextAnswers(int n) throws Exception {
        stop.set(true);
        clients.shutdown();
        clients.awaitTermination(30, java.util.concurrent.TimeUnit.SECONDS);
        stop.set(false);
        OpenAIClient client = OpenAIOkHttpClient.builder().baseUrl(gateway.baseUrl() + "/v1").apiKey("unused")
                .maxRetries(0).build();
        List<String> models = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            models.add(ask(client, "after the verdict " + i));
        }
        return models;
    }

    @Test
    void aHealthyCandidateIsPromotedThroughEveryStep() throws Exception {
        start(SPEED);
        traffic();
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200))
                .until(() -> "promoted".equals(state()));
        assertThat(sample("inference_gateway_rollout_weight", "rollout=\"llama\"")).isEqualTo(100);
        assertThat(sample("inference_gateway_rollout_transitions_total", "rollout=\"llama\",to=\"step\""))
                .isEqualTo(1);
        assertThat(sample("inference_gateway_rollout_transitions_total", "rollout=\"llama\",to=\"promoted\""))
                .isEqualTo(1);
        assertThat(failed.get()).isZero();
        assertThat(nextAnswers(10)).containsOnly(CANDIDATE);
    }

    @Test
    void aCandidateThreeTimesSlowerIsRolledBackAutomatically() throws Exception {
        start(SPEED / 3);
        traffic();
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200))
                .until(() -> "rolled_back".equals(state()));
        long bad = served(CANDIDATE);
        long all = bad + served(BASELINE);
        System.out.printf("3x slower candidate: served %d of %d requests (%.1f %%) before its rollback%n", bad, all,
                100.0 * bad / all);
        assertThat(sample("inference_gateway_rollout_weight", "rollout=\"llama\"")).isZero();
        assertThat(sample("inference_gateway_rollout_step", "rollout=\"llama\"")).as("rolled back in step 1")
                .isEqualTo(1);
        assertThat(nextAnswers(10)).containsOnly(BASELINE);
    }

    @Test
    void aCandidateAnsweringFivePercentWith500IsRolledBackAutomatically() throws Exception {
        start(SPEED);
        candidate.pod(0).inferenceErrors(0.05);
        traffic();
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200))
                .until(() -> "rolled_back".equals(state()));
        System.out.printf("5 %% 500s candidate: served %d, the clients saw %d errors, before its rollback%n",
                served(CANDIDATE), failed.get());
        assertThat(failed.get()).as("the SDK saw the candidate's 500s").isPositive();
        assertThat(sample("inference_gateway_rollout_weight", "rollout=\"llama\"")).isZero();
        assertThat(nextAnswers(10)).containsOnly(BASELINE);
    }
}
