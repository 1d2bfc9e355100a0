package io.inferencegateway.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.GatewayError;
import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.domain.LatencyPrediction;
import io.inferencegateway.domain.LatencyTargets;
import io.inferencegateway.domain.ParsedBody;
import io.inferencegateway.domain.PickDecision;
import io.inferencegateway.domain.PickReason;
import io.inferencegateway.domain.RequestRecord;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanId;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;

/** The spans of one request, from a record filled in as the request path fills it, read from an in-memory exporter. */
class RequestTracerTest {

    static final String MODEL = "meta-llama/Llama-3.1-8B-Instruct";
    static final String CLIENT_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    static final String CLIENT_SPAN = "00f067aa0ba902b7";
    /** The record's clock reads 5 s at arrival, which was at this wall-clock time. */
    static final long START_NANOS = 5_000_000_000L;
    static final long START_EPOCH_MILLIS = 1_700_000_000_000L;
    static final long MS = 1_000_000L;

    InMemorySpanExporter exported = InMemorySpanExporter.create();
    long now = START_NANOS;
    RequestTracer tracer = tracer(1.0);

    RequestTracer tracer(double ratio) {
        return new RequestTracer(SimpleSpanProcessor.create(exported), "gw-test", ratio, () -> now);
    }

    @AfterEach
    void close() {
        tracer.close();
    }

    static RequestRecord record(String traceparent) {
        return new RequestRecord(START_NANOS, START_EPOCH_MILLIS, "POST", "/v1/chat/completions", "chat", "req-42", traceparent);
    }

    static long epochNanosAt(long millisAfterStart) {
        return START_EPOCH_MILLIS * MS + millisAfterStart * MS;
    }

    /** A streamed chat served by one pod: parsed at 1 ms, picked at 3 ms (1.5 ms of scheduling), answered at 10 ms. */
    RequestRecord servedStream(String traceparent) {
        RequestRecord r = record(traceparent);
        tracer.started(r);
        r.parsed(ParsedBody.builder(MODEL).promptText("user: hi").promptTokensEstimate(2).stream(true).build(),
                START_NANOS + 1 * MS);
        r.routedTo("llama", MODEL);
        r.picked(new PickDecision(new Endpoint("10.0.0.7", 8000), PickReason.PREFIX_HIT, 512, 3), 3 * MS / 2);
        now = START_NANOS + 3 * MS;
        tracer.picked(r);
        r.answered(200, START_NANOS + 10 * MS);
        r.firstToken(START_NANOS + 25 * MS);
        r.usage(600, 40, 512);
        r.end(RequestRecord.Ending.COMPLETED, START_NANOS + 90 * MS);
        tracer.ended(r);
        return r;
    }

    Map<String, SpanData> byName() {
        return exported.getFinishedSpanItems().stream().collect(Collectors.toMap(SpanData::getName, Function.identity()));
    }

    @Test
    void aServedRequestIsARootServerSpanWithParsePickAndUpstreamChildrenAtTheRecordsTimes() {
        servedStream(null);

        Map<String, SpanData> spans = byName();
        assertThat(spans).containsOnlyKeys("POST /v1/chat/completions", "parse", "pick", "chat " + MODEL);
        SpanData root = spans.get("POST /v1/chat/completions");
        assertThat(root.getKind()).isEqualTo(SpanKind.SERVER);
        assertThat(root.getParentSpanId()).isEqualTo(SpanId.getInvalid());
        assertThat(root.getStartEpochNanos()).isEqualTo(epochNanosAt(0));
        assertThat(root.getEndEpochNanos()).isEqualTo(epochNanosAt(90));
        for (String child : List.of("parse", "pick", "chat " + MODEL)) {
            assertThat(spans.get(child).getParentSpanId()).as(child).isEqualTo(root.getSpanId());
            assertThat(spans.get(child).getTraceId()).as(child).isEqualTo(root.getTraceId());
        }
        SpanData parse = spans.get("parse");
        assertThat(parse.getStartEpochNanos()).isEqualTo(epochNanosAt(0));
        assertThat(parse.getEndEpochNanos()).isEqualTo(epochNanosAt(1));
        SpanData pick = spans.get("pick");
        assertThat(pick.getEndEpochNanos() - pick.getStartEpochNanos()).isEqualTo(3 * MS / 2);
        assertThat(pick.getEndEpochNanos()).isEqualTo(epochNanosAt(3));
        SpanData upstream = spans.get("chat " + MODEL);
        assertThat(upstream.getKind()).isEqualTo(SpanKind.CLIENT);
        assertThat(upstream.getStartEpochNanos()).isEqualTo(epochNanosAt(3));
        assertThat(upstream.getEndEpochNanos()).isEqualTo(epochNanosAt(90));
        assertThat(upstream.getEvents()).singleElement().satisfies(e -> {
            assertThat(e.getName()).isEqualTo("first_token");
            assertThat(e.getEpochNanos()).isEqualTo(epochNanosAt(25));
        });
        assertThat(root.getResource().getAttribute(AttributeKey.stringKey("service.name"))).isEqualTo("gw-test");
        assertThat(root.getStatus().getStatusCode()).isEqualTo(StatusCode.UNSET);
    }

    @Test
    void theClientsTraceparentIsTheParentAndTheModelServerSeesTheUpstreamSpan() {
        RequestRecord r = servedStream("00-" + CLIENT_TRACE + "-" + CLIENT_SPAN + "-01");

        Map<String, SpanData> spans = byName();
        SpanData root = spans.get("POST /v1/chat/completions");
        assertThat(root.getTraceId()).isEqualTo(CLIENT_TRACE);
        assertThat(root.getParentSpanId()).isEqualTo(CLIENT_SPAN);
        assertThat(root.getParentSpanContext().isRemote()).isTrue();
        SpanData upstream = spans.get("chat " + MODEL);
        assertThat(r.upstreamTraceparent()).isEqualTo("00-" + CLIENT_TRACE + "-" + upstream.getSpanId() + "-01");
    }

    @Test
    void spansCarryTheGenAiHttpAndSchedulerAttributes() {
        servedStream(null);

        Map<String, SpanData> spans = byName();
        Map<String, Object> root = attributes(spans.get("POST /v1/chat/completions"));
        assertThat(root).containsEntry("http.request.method", "POST")
                .containsEntry("http.route", "/v1/chat/completions")
                .containsEntry("http.response.status_code", 200L)
                .containsEntry("http.request.header.x-request-id", List.of("req-42"))
                .containsEntry("gen_ai.operation.name", "chat")
                .containsEntry("gen_ai.request.model", MODEL)
                .containsEntry("gen_ai.usage.input_tokens", 600L)
                .containsEntry("gen_ai.usage.output_tokens", 40L)
                .containsEntry("gen_ai.usage.cache_read.input_tokens", 512L)
                .containsEntry("inference_gateway.pool", "llama")
                .containsEntry("inference_gateway.pod", "10.0.0.7:8000")
                .containsEntry("inference_gateway.pick.reason", "prefix_hit")
                .containsEntry("inference_gateway.stream", true)
                .containsEntry("inference_gateway.ending", "completed");
        assertThat(attributes(spans.get("pick"))).containsEntry("inference_gateway.pool", "llama")
                .containsEntry("inference_gateway.pod", "10.0.0.7:8000")
                .containsEntry("inference_gateway.pick.reason", "prefix_hit")
                .containsEntry("inference_gateway.pick.candidates", 3L)
                .containsEntry("inference_gateway.pick.expected_cached_tokens", 512L)
                .containsEntry("inference_gateway.pick.attempt", 1L);
        assertThat(attributes(spans.get("chat " + MODEL))).containsEntry("server.address", "10.0.0.7")
                .containsEntry("server.port", 8000L)
                .containsEntry("http.response.status_code", 200L)
                .containsEntry("gen_ai.operation.name", "chat")
                .containsEntry("gen_ai.request.model", MODEL)
                .containsEntry("gen_ai.usage.output_tokens", 40L);
    }

    /**
     * A streamed chat with targets of 20 ms to the first token and 2 ms a token, routed by a prediction of 18.5 and
     * 1.5 ms: its first token comes at {@code ttftMs}, its 40 tokens 1 ms apart.
     */
    RequestRecord targetedStream(long ttftMs) {
        Endpoint pod = new Endpoint("10.0.0.7", 8000);
        RequestRecord r = record(null);
        tracer.started(r);
        r.parsed(ParsedBody.builder(MODEL).promptText("user: hi").promptTokensEstimate(2).stream(true).build(),
                START_NANOS + 1 * MS);
        r.routedTo("llama", MODEL);
        r.classified(InferenceRequest.builder(MODEL).targets(new LatencyTargets(20, 2)).build());
        r.admitted(0);
        r.picked(new PickDecision(pod, PickReason.LATENCY_TARGET, 0, 3,
                new LatencyPrediction(pod, 18.5, 1.5, 40, true, START_NANOS + 3 * MS, new double[9], null)), MS);
        now = START_NANOS + 3 * MS;
        tracer.picked(r);
        r.answered(200, START_NANOS + 10 * MS);
        r.firstToken(START_NANOS + ttftMs * MS);
        r.usage(600, 40, 0);
        r.end(RequestRecord.Ending.COMPLETED, START_NANOS + (ttftMs + 39) * MS);
        tracer.ended(r);
        return r;
    }

    @Test
    void thePickSpanCarriesThePredictionAndTargetsAndTheRequestSpanWhetherTheyWereMet() {
        targetedStream(15);
        Map<String, SpanData> spans = byName();
        assertThat(attributes(spans.get("pick"))).containsEntry("inference_gateway.pick.reason", "latency_target")
                .containsEntry("inference_gateway.pick.predicted_ttft_ms", 18.5)
                .containsEntry("inference_gateway.pick.predicted_tpot_ms", 1.5)
                .containsEntry("inference_gateway.slo.ttft_ms", 20L)
                .containsEntry("inference_gateway.slo.tpot_ms", 2L);
        assertThat(attributes(spans.get("POST /v1/chat/completions")))
                .containsEntry("inference_gateway.slo.ttft_ms", 20L)
                .containsEntry("inference_gateway.slo.outcome", "met");

        exported.reset();
        targetedStream(25);
        assertThat(attributes(byName().get("POST /v1/chat/completions")))
                .containsEntry("inference_gateway.slo.outcome", "ttft");
    }

    @Test
    void aRequestWithoutTargetsOrPredictionHasNoneOfTheirAttributes() {
        servedStream(null);
        for (SpanData span : exported.getFinishedSpanItems()) {
            assertThat(attributes(span).keySet()).as(span.getName())
                    .noneMatch(k -> k.startsWith("inference_gateway.slo.") || k.contains("predicted"));
        }
    }

    @Test
    void aFailoverEndsTheFirstUpstreamSpanInErrorAndTheModelServerSeesTheSecond() {
        RequestRecord r = record(null);
        tracer.started(r);
        r.parsed(ParsedBody.builder(MODEL).promptText("hi").promptTokensEstimate(1).build(), now);
        r.routedTo("llama", MODEL);
        r.picked(new PickDecision(new Endpoint("10.0.0.1", 8000), PickReason.LEAST_LOADED, 0, 2), MS);
        now += 2 * MS;
        tracer.picked(r);
        String first = r.upstreamTraceparent();
        r.picked(new PickDecision(new Endpoint("10.0.0.2", 8000), PickReason.FAILOVER, 0, 1), MS);
        now += 5 * MS;
        tracer.picked(r);
        r.answered(200, now + MS);
        r.firstToken(now + 20 * MS);
        r.end(RequestRecord.Ending.COMPLETED, now + 20 * MS);
        tracer.ended(r);

        List<SpanData> spans = exported.getFinishedSpanItems();
        List<SpanData> upstreams = spans.stream().filter(s -> s.getKind() == SpanKind.CLIENT).toList();
        assertThat(upstreams).hasSize(2);
        assertThat(upstreams.get(0).getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
        assertThat(upstreams.get(0).getAttributes().get(SpanAttributes.SERVER_ADDRESS)).isEqualTo("10.0.0.1");
        assertThat(upstreams.get(1).getStatus().getStatusCode()).isEqualTo(StatusCode.UNSET);
        assertThat(upstreams.get(1).getAttributes().get(SpanAttributes.SERVER_ADDRESS)).isEqualTo("10.0.0.2");
        assertThat(first).contains(upstreams.get(0).getSpanId());
        assertThat(r.upstreamTraceparent()).contains(upstreams.get(1).getSpanId());
        assertThat(spans.stream().filter(s -> s.getName().equals("pick")).map(s -> s.getAttributes()
                .get(SpanAttributes.PICK_REASON))).containsExactly("least_loaded", "failover");
    }

    @Test
    void aRefusedRequestHasNoUpstreamSpanAndIsAnErrorOnlyWhenTheGatewayFailed() {
        RequestRecord notFound = record(null);
        tracer.started(notFound);
        notFound.parsed(ParsedBody.builder("no-such-model").promptText("hi").promptTokensEstimate(1).build(),
                START_NANOS);
        notFound.failed(GatewayError.Reason.MODEL_NOT_FOUND, 404);
        notFound.end(RequestRecord.Ending.REFUSED, START_NANOS + MS);
        tracer.ended(notFound);
        RequestRecord noPod = record(null);
        tracer.started(noPod);
        noPod.parsed(ParsedBody.builder(MODEL).promptText("hi").promptTokensEstimate(1).build(), START_NANOS);
        noPod.routedTo("llama", MODEL);
        noPod.failed(GatewayError.Reason.NO_ENDPOINT, 503);
        noPod.end(RequestRecord.Ending.REFUSED, START_NANOS + MS);
        tracer.ended(noPod);

        List<SpanData> roots = exported.getFinishedSpanItems().stream().filter(s -> s.getKind() == SpanKind.SERVER)
                .toList();
        assertThat(exported.getFinishedSpanItems()).extracting(SpanData::getName)
                .containsOnly("POST /v1/chat/completions", "parse");
        assertThat(roots).hasSize(2);
        assertThat(roots.get(0).getStatus().getStatusCode()).as("a client's mistake").isEqualTo(StatusCode.UNSET);
        assertThat(attributes(roots.get(0))).containsEntry("http.response.status_code", 404L)
                .containsEntry("error.type", "model_not_found");
        assertThat(roots.get(1).getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
        assertThat(attributes(roots.get(1))).containsEntry("error.type", "no_endpoint");
    }

    @Test
    void aBodyThatCouldNotBeReadEndsParseInError() {
        RequestRecord r = record(null);
        tracer.started(r);
        r.failed(GatewayError.Reason.INVALID_REQUEST, 400);
        r.end(RequestRecord.Ending.REFUSED, START_NANOS + 2 * MS);
        tracer.ended(r);

        SpanData parse = byName().get("parse");
        assertThat(parse.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
        assertThat(parse.getEndEpochNanos()).isEqualTo(epochNanosAt(2));
        assertThat(attributes(byName().get("POST /v1/chat/completions"))).containsEntry("error.type", "invalid_request")
                .doesNotContainKey("gen_ai.request.model");
    }

    @Test
    void anUnsampledClientTraceIsNotExportedButTheModelServerStillGetsItsTraceId() {
        RequestRecord r = servedStream("00-" + CLIENT_TRACE + "-" + CLIENT_SPAN + "-00");

        assertThat(exported.getFinishedSpanItems()).isEmpty();
        assertThat(r.upstreamTraceparent()).startsWith("00-" + CLIENT_TRACE + "-").endsWith("-00")
                .doesNotContain(CLIENT_SPAN);
    }

    @Test
    void theSamplingRatioDecidesForTracesStartedHere() {
        tracer.close(); // and its exporter
        exported = InMemorySpanExporter.create();
        tracer = tracer(0.0);
        RequestRecord r = servedStream(null);
        assertThat(exported.getFinishedSpanItems()).isEmpty();
        assertThat(r.upstreamTraceparent()).matches("00-[0-9a-f]{32}-[0-9a-f]{16}-00");

        servedStream("00-" + CLIENT_TRACE + "-" + CLIENT_SPAN + "-01");
        assertThat(exported.getFinishedSpanItems()).as("a sampled client trace is followed").hasSize(4);
    }

    @Test
    void aMalformedClientTraceparentStartsANewTrace() {
        RequestRecord r = servedStream("00-not-a-trace-01");

        SpanData root = byName().get("POST /v1/chat/completions");
        assertThat(root.getParentSpanId()).isEqualTo(SpanId.getInvalid());
        assertThat(r.upstreamTraceparent()).startsWith("00-" + root.getTraceId() + "-");
    }

    @Test
    void spansGoToV1TracesUnderTheCollectorsBaseUrl() {
        assertThat(RequestTracer.tracesUrl(URI.create("http://collector:4318"))).isEqualTo(
                "http://collector:4318/v1/traces");
        assertThat(RequestTracer.tracesUrl(URI.create("http://collector:4318/"))).isEqualTo(
                "http://collector:4318/v1/traces");
        assertThat(RequestTracer.tracesUrl(URI.create("https://c/otlp/v1/traces"))).isEqualTo(
                "https://c/otlp/v1/traces");
    }

    static Map<String, Object> attributes(SpanData span) {
        return span.getAttributes().asMap().entrySet().stream()
                .collect(Collectors.toMap(e -> e.getKey().getKey(), Map.Entry::getValue));
    }
}
