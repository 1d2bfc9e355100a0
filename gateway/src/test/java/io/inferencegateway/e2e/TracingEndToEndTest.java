package io.inferencegateway.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.http.StreamResponse;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;

import io.inferencegateway.simulator.FleetOptions;
import io.inferencegateway.simulator.SimulatedFleet;
import io.inferencegateway.testing.GatewayHarness;
import io.inferencegateway.testing.OtlpCollector;
import io.inferencegateway.testing.OtlpCollector.ReceivedSpan;
import io.inferencegateway.testing.TestUpstream;
import io.opentelemetry.proto.trace.v1.Span;

/**
 * Traces end to end: the real gateway, configured with an OTLP endpoint, in front of a model server that records
 * request headers (pool {@code m}) and a simulated vLLM pod (pool {@code llama}); an OpenAI SDK client sends a W3C
 * {@code traceparent}; a loopback collector receives the spans over OTLP/HTTP protobuf.
 */
class TracingEndToEndTest {

    static final String SIM_MODEL = "meta-llama/Llama-3.1-8B-Instruct";
    static final Pattern TRACEPARENT = Pattern.compile("00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})");
    /** The batch processor exports every five seconds (its default); allow for a loaded machine. */
    static final Duration EXPORTED = Duration.ofSeconds(30);

    static OtlpCollector collector;
    static TestUpstream upstream;
    static SimulatedFleet fleet;
    static GatewayHarness gateway;
    static OpenAIClient client;

    @BeforeAll
    static void start() throws Exception {
        collector = new OtlpCollector();
        upstream = new TestUpstream();
        fleet = SimulatedFleet.start(FleetOptions.builder().pods(1).model(SIM_MODEL).build());
        gateway = GatewayHarness.start("""
                kind: InferenceGatewayConfig
                spec:
                  observability:
                    tracing:
                      otlpEndpoint: %s
                      serviceName: gateway-under-test
                  schedulers:
                    - name: m
                      modelName: m
                      policy: round-robin
                      endpoints: ["%s"]
                    - name: llama
                      modelName: %s
                      policy: gpu-aware
                      metricsInterval: 100ms
                      endpoints: [%s]
                """.formatted(collector.baseUrl(), upstream.address(), SIM_MODEL,
                GatewayHarness.quotedList(fleet.endpoints())));
        client = OpenAIOkHttpClient.builder().baseUrl(gateway.baseUrl() + "/v1").apiKey("unused").maxRetries(0)
                .build();
    }

    @AfterAll
    static void stop() throws Exception {
        gateway.close();
        fleet.close();
        upstream.close();
        collector.close();
    }

    static String randomHex(int bytes) {
        byte[] b = new byte[bytes];
        ThreadLocalRandom.current().nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    static Map<String, ReceivedSpan> awaitTrace(String traceId, int spans) {
        await().atMost(EXPORTED).until(() -> collector.trace(traceId).size() >= spans);
        return collector.trace(traceId).stream().collect(Collectors.toMap(ReceivedSpan::name, Function.identity()));
    }

    @Test
    void theClientsTraceReachesTheCollectorAndTheModelServerSeesTheGatewaysUpstreamSpanAsItsParent() {
        String traceId = randomHex(16);
        String clientSpan = randomHex(8);
        upstream.behave(new TestUpstream.ChatSse("m", 3, 5));
        int before = upstream.received().size();

        List<String> deltas = new ArrayList<>();
        try (StreamResponse<ChatCompletionChunk> stream = client.chat().completions().createStreaming(
                ChatCompletionCreateParams.builder().model("m").addUserMessage("count to three")
                        .putAdditionalHeader("traceparent", "00-" + traceId + "-" + clientSpan + "-01").build())) {
            stream.stream().forEach(c -> c.choices().forEach(ch -> ch.delta().content().ifPresent(deltas::add)));
        }
        assertThat(deltas).containsExactly("t0 ", "t1 ", "t2 ");

        // what the model server was sent: the client's trace, a span of the gateway's as the parent
        assertThat(upstream.received()).hasSize(before + 1);
        String sent = upstream.received().get(before).headers().get("traceparent");
        Matcher m = TRACEPARENT.matcher(sent == null ? "" : sent);
        assertThat(m.matches()).as("traceparent sent upstream: %s", sent).isTrue();
        assertThat(m.group(1)).isEqualTo(traceId);
        assertThat(m.group(2)).isNotEqualTo(clientSpan);
        assertThat(m.group(3)).isEqualTo("01");

        // what the collector received: the gateway's spans in the client's trace
        Map<String, ReceivedSpan> spans = awaitTrace(traceId, 4);
        assertThat(collector.contentTypes()).allMatch(t -> t.startsWith("application/x-protobuf"));
        assertThat(spans).containsOnlyKeys("POST /v1/chat/completions", "parse", "pick", "chat m");
        ReceivedSpan root = spans.get("POST /v1/chat/completions");
        assertThat(root.serviceName()).isEqualTo("gateway-under-test");
        assertThat(root.span().getKind()).isEqualTo(Span.SpanKind.SPAN_KIND_SERVER);
        assertThat(root.parentSpanId()).as("the client's span is the parent").isEqualTo(clientSpan);
        assertThat(root.attribute("http.response.status_code")).isEqualTo("200");
        assertThat(root.attribute("gen_ai.request.model")).isEqualTo("m");
        assertThat(root.attribute("inference_gateway.pod")).isEqualTo(upstream.address());
        ReceivedSpan call = spans.get("chat m");
        assertThat(call.spanId()).as("the span the model server was told of").isEqualTo(m.group(2));
        assertThat(call.parentSpanId()).isEqualTo(root.spanId());
        assertThat(call.span().getKind()).isEqualTo(Span.SpanKind.SPAN_KIND_CLIENT);
        assertThat(call.attribute("server.port")).isEqualTo(Integer.toString(upstream.port()));
        assertThat(call.span().getEventsList()).extracting(Span.Event::getName).containsExactly("first_token");
        Span.Event firstToken = call.span().getEvents(0);
        assertThat(firstToken.getTimeUnixNano()).isBetween(call.span().getStartTimeUnixNano(),
                call.span().getEndTimeUnixNano());
        assertThat(spans.get("pick").attribute("inference_gateway.pick.reason")).isEqualTo("only_candidate");
        assertThat(spans.get("pick").parentSpanId()).isEqualTo(root.spanId());
    }

    @Test
    void aRequestWithoutATraceparentStartsATraceThatCarriesTheSimulatedPodsUsage() {
        String requestId = "trace-e2e-" + randomHex(4);
        ChatCompletion c = client.chat().completions().create(ChatCompletionCreateParams.builder().model(SIM_MODEL)
                .addUserMessage("tell me something").maxCompletionTokens(7)
                .putAdditionalHeader("x-request-id", requestId).build());
        long completionTokens = c.usage().orElseThrow().completionTokens();
        long promptTokens = c.usage().orElseThrow().promptTokens();

        await().atMost(EXPORTED).until(() -> collector.spans().stream()
                .anyMatch(s -> requestId.equals(s.attribute("http.request.header.x-request-id"))));
        ReceivedSpan root = collector.spans().stream()
                .filter(s -> requestId.equals(s.attribute("http.request.header.x-request-id"))).findFirst()
                .orElseThrow();
        assertThat(root.parentSpanId()).as("a new trace").isEmpty();
        assertThat(root.attribute("gen_ai.operation.name")).isEqualTo("chat");
        assertThat(root.attribute("gen_ai.usage.output_tokens")).isEqualTo(Long.toString(completionTokens));
        assertThat(root.attribute("gen_ai.usage.input_tokens")).isEqualTo(Long.toString(promptTokens));
        assertThat(root.attribute("inference_gateway.pool")).isEqualTo("llama");
        assertThat(root.attribute("inference_gateway.pod")).isEqualTo(fleet.endpoints().get(0));
        Map<String, ReceivedSpan> spans = awaitTrace(root.traceId(), 4);
        assertThat(spans).containsKeys("parse", "pick", "chat " + SIM_MODEL);
        assertThat(spans.get("chat " + SIM_MODEL).attribute("gen_ai.usage.output_tokens"))
                .isEqualTo(Long.toString(completionTokens));
    }

    @Test
    void withoutTracingTheModelServerGetsTheClientsTraceparentUntouched() throws Exception {
        String traceparent = "00-" + randomHex(16) + "-" + randomHex(8) + "-01";
        try (GatewayHarness plain = GatewayHarness.start(GatewayHarness.config("m", "round-robin",
                upstream.address()))) {
            upstream.behave(new TestUpstream.Json(200, "{\"id\":\"cmpl-1\",\"object\":\"text_completion\"}"));
            int before = upstream.received().size();
            OpenAIClient direct = OpenAIOkHttpClient.builder().baseUrl(plain.baseUrl() + "/v1").apiKey("unused")
                    .maxRetries(0).build();
            direct.withRawResponse().chat().completions().create(ChatCompletionCreateParams.builder().model("m")
                    .addUserMessage("hi").putAdditionalHeader("traceparent", traceparent).build()).close();
            assertThat(upstream.received().get(before).headers().get("traceparent")).isEqualTo(traceparent);
        }
        assertThat(collector.spans()).noneMatch(s -> traceparent.contains(s.traceId()));
    }
}
