package io.inferencegateway.observability;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.domain.LatencyPrediction;
import io.inferencegateway.domain.LatencyTargets;
import io.inferencegateway.domain.ParsedBody;
import io.inferencegateway.domain.PickDecision;
import io.inferencegateway.domain.PickReason;
import io.inferencegateway.domain.RequestRecord;

/** The access log's line of one request, without a logger: the latency fields a request with targets adds. */
class AccessLogTest {

    static final Endpoint A = Endpoint.parse("127.0.0.1:8001");
    static final ObjectMapper JSON = new ObjectMapper();

    /** A stream with targets of 200 ms / 30 ms, predicted at 120.4 / 24.6 ms: first token at 150 ms, 10 tokens 25 ms apart. */
    static RequestRecord targetedAndPredicted(long tpotMs) {
        long now = 1_000_000_000L;
        RequestRecord r = new RequestRecord(now, 0, "POST", "/v1/chat/completions", "chat", null, null);
        r.parsed(ParsedBody.builder("m").promptText("hi").promptTokensEstimate(1).stream(true).build(), now);
        r.routedTo("llama", "m");
        r.classified(InferenceRequest.builder("m").priority(1).targets(new LatencyTargets(200, 30)).build());
        r.admitted(0);
        r.picked(new PickDecision(A, PickReason.LATENCY_TARGET, 0, 2,
                new LatencyPrediction(A, 120.4, 24.6, 10, true, now, new double[9], null)), 5_000);
        r.answered(200, now + 1_000_000L);
        r.firstToken(now += 150_000_000L);
        r.usage(40, 10, 0);
        r.end(RequestRecord.Ending.COMPLETED, now + 9 * tpotMs * 1_000_000L);
        return r;
    }

    @Test
    void aTargetedPredictedRequestLogsItsTargetsItsPredictionAndWhetherItMetThem() throws Exception {
        JsonNode line = JSON.readTree(AccessLog.line(targetedAndPredicted(25)));
        assertThat(line.path("slo_ttft_ms").asLong()).isEqualTo(200);
        assertThat(line.path("slo_tpot_ms").asLong()).isEqualTo(30);
        assertThat(line.path("predicted_ttft_ms").asLong()).isEqualTo(120);
        assertThat(line.path("predicted_tpot_ms").asLong()).isEqualTo(25);
        assertThat(line.path("slo_met").isBoolean()).isTrue();
        assertThat(line.path("slo_met").asBoolean()).isTrue();
        assertThat(line.path("ttft_ms").asDouble()).isEqualTo(150);

        JsonNode slow = JSON.readTree(AccessLog.line(targetedAndPredicted(40)));
        assertThat(slow.path("slo_met").asBoolean()).as("40 ms a token against 30").isFalse();
    }

    @Test
    void theNewFieldsComeLastAndAreNullWithoutTargetsOrPrediction() throws Exception {
        long now = 1_000_000_000L;
        RequestRecord r = new RequestRecord(now, 0, "POST", "/v1/chat/completions", "chat", null, null);
        r.parsed(ParsedBody.builder("m").promptText("hi").promptTokensEstimate(1).build(), now);
        r.routedTo("llama", "m");
        r.picked(new PickDecision(A, PickReason.POLICY, 0, 2), 5_000);
        r.answered(200, now + 1_000_000L);
        r.end(RequestRecord.Ending.COMPLETED, now + 50_000_000L);
        JsonNode line = JSON.readTree(AccessLog.line(r));
        List<String> fields = new ArrayList<>();
        line.fieldNames().forEachRemaining(fields::add);
        assertThat(fields.subList(0, fields.indexOf("expected_cached_tokens") + 1)).as("the fields before stay")
                .containsExactly("time", "request_id", "path", "tenant", "model", "stream", "pool", "pod",
                        "pick_reason", "attempts", "priority", "queue_ms", "status", "ending", "error", "ttft_ms",
                        "duration_ms", "input_tokens", "output_tokens", "cached_tokens", "expected_cached_tokens");
        assertThat(fields.subList(fields.indexOf("expected_cached_tokens") + 1, fields.size())).containsExactly(
                "slo_ttft_ms", "slo_tpot_ms", "predicted_ttft_ms", "predicted_tpot_ms", "slo_met");
        for (String f : List.of("slo_ttft_ms", "slo_tpot_ms", "predicted_ttft_ms", "predicted_tpot_ms", "slo_met")) {
            assertThat(line.path(f).isNull()).as(f).isTrue();
        }
    }
}
