package io.inferencegateway.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.http.StreamResponse;
import com.openai.errors.RateLimitException;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;

import io.inferencegateway.scheduling.PluginPolicy;
import io.inferencegateway.scheduling.latency.LatencyPredictor;
import io.inferencegateway.simulator.FleetOptions;
import io.inferencegateway.simulator.SimulatedFleet;
import io.inferencegateway.testing.GatewayHarness;

/**
 * Latency targets end to end, through the OpenAI SDK: two simulated vLLM pods, one a GPU four times slower than the
 * other. The gateway learns their speeds from the streams it relays; then an interactive request (critical, first token
 * within 180 ms) goes to the fast pod, a batch request (sheddable, 3 s) is packed on the slow one, and a sheddable
 * request no pod can serve in time is refused with a 429 that says what was predicted. Plain bodies teach it too: a
 * client that never streams gets the same predictions.
 *
 * <p>A prompt of ~2,000 tokens takes ~70 ms to prefill on the fast pod and ~280 ms on the slow one (the simulator's
 * step-cost model, in wall time at time scale 1), so 180 ms is well inside one and well outside the other.
 */
class LatencyTargetRoutingTest {

    static final String MODEL = "meta-llama/Llama-3.1-8B-Instruct";
    static final int FAST = 0;
    static final int SLOW = 1;

    SimulatedFleet fleet;
    GatewayHarness gateway;
    OpenAIClient client;

    void start() throws Exception {
        fleet = SimulatedFleet.start(FleetOptions.builder().model(MODEL).pods(2).speeds(1.0, 0.25).timeScale(1)
                .build());
        // metrics count as fresh for 2 s, so that a busy test machine's late scrapes do not look stale
        gateway = GatewayHarness.start(GatewayHarness.fleetConfig(fleet, MODEL, "policy: gpu-aware",
                "metricsInterval: 100ms", "metricsStalenessThreshold: 2s"));
        client = OpenAIOkHttpClient.builder().baseUrl(gateway.baseUrl() + "/v1").apiKey("unused").maxRetries(0)
                .build();
        gateway.awaitScraped(2); // a request placed before has no prediction, and teaches the predictor nothing
    }

    @AfterEach
    void stop() throws Exception {
        if (client != null) {
            client.close();
        }
        if (gateway != null) {
            gateway.close();
        }
        if (fleet != null) {
            fleet.close();
        }
    }

    /** A prompt of about 2,000 tokens that no other request shares (no prefix cache to help). */
    static String prompt(String tag) {
        return tag + ": " + "summarise the maintenance log of the bicycle fleet, entry by entry. ".repeat(120);
    }

    /** Streams one chat completion to its end; returns which pod served it. */
    int stream(String tag, Map<String, String> headers) {
        ChatCompletionCreateParams.Builder params = ChatCompletionCreateParams.builder().model(MODEL)
                .addUserMessage(prompt(tag)).maxCompletionTokens(4);
        headers.forEach(params::putAdditionalHeader);
        long[] before = served();
        try (StreamResponse<ChatCompletionChunk> chunks = client.chat().completions().createStreaming(params.build())) {
            chunks.stream().forEach(chunk -> { });
        }
        long[] after = served();
        return after[FAST] > before[FAST] ? FAST : after[SLOW] > before[SLOW] ? SLOW : -1;
    }

    /** Sends one chat completion that is not streamed; returns which pod served it. */
    int whole(String tag) {
        long[] before = served();
        client.chat().completions().create(ChatCompletionCreateParams.builder().model(MODEL).addUserMessage(prompt(tag))
                .maxCompletionTokens(4).build());
        long[] after = served();
        return after[FAST] > before[FAST] ? FAST : after[SLOW] > before[SLOW] ? SLOW : -1;
    }

    long[] served() {
        return new long[] {fleet.pod(FAST).requestsServed(), fleet.pod(SLOW).requestsServed()};
    }

    /** Streams until the gateway has seen both pods answer often enough to know their speeds. */
    void learnThePods() {
        int[] per = new int[2];
        for (int i = 0; per[FAST] < 12 || per[SLOW] < 12; i++) {
            assertThat(i).as("warm-up requests before both pods served 12").isLessThan(200);
            int pod = stream("warm-up " + i, Map.of());
            per[pod]++;
        }
    }

    @Test
    void anInteractiveRequestGoesToTheFastPodAndABatchRequestIsPackedOnTheSlowOne() throws Exception {
        start();
        learnThePods();

        for (int i = 0; i < 3; i++) {
            assertThat(stream("chat " + i, Map.of("x-gateway-priority", "critical", "x-slo-ttft-ms", "180")))
                    .as("interactive %d", i).isEqualTo(FAST);
            assertThat(stream("batch " + i, Map.of("x-gateway-priority", "sheddable", "x-slo-ttft-ms", "3000")))
                    .as("batch %d", i).isEqualTo(SLOW);
        }

        ChatCompletionCreateParams impossible = ChatCompletionCreateParams.builder().model(MODEL)
                .addUserMessage(prompt("in no time")).maxCompletionTokens(4)
                .putAdditionalHeader("x-gateway-priority", "sheddable").putAdditionalHeader("x-slo-ttft-ms", "5")
                .build();
        assertThatThrownBy(() -> client.chat().completions().create(impossible))
                .isInstanceOfSatisfying(RateLimitException.class, e -> {
                    assertThat(e.headers().values("x-gateway-dropped-reason")).containsExactly("slo_unattainable");
                    assertThat(e.getMessage()).contains("predicted").contains("target 5 ms");
                });
    }

    @Test
    void plainBodiesTeachThePredictorTheFirstTokenAStreamThenTakesAndWhichPodIsFaster() throws Exception {
        start();
        LatencyPredictor predictor = ((PluginPolicy) gateway.server().gateway().pools().pool("llama").policy())
                .predictor();
        int[] per = new int[2];
        int sent = 0;
        for (; per[FAST] < 12 || per[SLOW] < 12; sent++) {
            assertThat(sent).as("plain bodies before both pods served 12").isLessThan(200);
            per[whole("plain " + sent)]++;
        }
        int plain = sent; // the last may be learned just after its client has it: the request ends after its body
        await().atMost(Duration.ofSeconds(20)).untilAsserted(
                () -> assertThat(predictor.samples()).as("one sample per plain body").isEqualTo(plain));
        assertThat(predictor.ready()).isTrue();
        assertThat(predictor.ranking().share()).as("pairs of plain bodies on the two pods in the order predicted")
                .isGreaterThan(0.8);

        for (int i = 0; i < 6; i++) { // each stream's first token compared with what the plain bodies taught
            stream("measured " + i, Map.of());
        }
        // the last stream is compared when its request ends, which may be just after its client read the end
        await().atMost(Duration.ofSeconds(20)).untilAsserted(
                () -> assertThat(predictor.ttftAccuracy().count()).isEqualTo(6));
        assertThat(predictor.ttftAccuracy().mape()).as("TTFT mean absolute percentage error").isLessThan(0.35);
    }

    @Test
    void aBadTargetHeaderIsA400() throws Exception {
        start();
        ChatCompletionCreateParams bad = ChatCompletionCreateParams.builder().model(MODEL).addUserMessage("hi")
                .maxCompletionTokens(4).putAdditionalHeader("x-slo-ttft-ms", "soon").build();
        assertThatThrownBy(() -> client.chat().completions().create(bad))
                .isInstanceOfSatisfying(com.openai.errors.BadRequestException.class,
                        e -> assertThat(e.getMessage()).contains("x-slo-ttft-ms"));
    }
}
