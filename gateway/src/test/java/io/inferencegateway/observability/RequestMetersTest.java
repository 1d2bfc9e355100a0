package io.inferencegateway.observability;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.inferencegateway.domain.RequestListeners;
import io.inferencegateway.config.ConfigLoader;
import io.inferencegateway.runtime.Gateway;
import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.GatewayError;
import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.domain.LatencyTargets;
import io.inferencegateway.domain.ParsedBody;
import io.inferencegateway.domain.PickDecision;
import io.inferencegateway.domain.PickReason;
import io.inferencegateway.domain.Priority;
import io.inferencegateway.domain.RequestRecord;
import io.inferencegateway.pool.ModelPool;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/** The request meters' bookkeeping without HTTP: what each ending counts, and per-pod series that follow the pool. */
class RequestMetersTest {

    static final Endpoint A = Endpoint.parse("127.0.0.1:8001");
    static final Endpoint B = Endpoint.parse("127.0.0.1:8002");

    final long[] now = {1_000_000_000L};
    final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    Gateway gateway() throws Exception {
        return new Gateway(ConfigLoader.parse("""
                kind: InferenceGatewayConfig
                spec:
                  schedulers:
                    - {name: llama, modelName: m, endpoints: ['127.0.0.1:8001', '127.0.0.1:8002']}
                """), () -> now[0], registry);
    }

    /** A streamed request served by {@code pod}: 100 ms to the first token, 10 tokens 20 ms apart. */
    RequestRecord served(Gateway gateway, Endpoint pod) {
        RequestListeners listeners = gateway.requestListeners();
        RequestRecord r = new RequestRecord(now[0], 0, "POST", "/v1/chat/completions", "chat", null, null);
        listeners.started(r);
        r.parsed(ParsedBody.builder("m").promptText("hi").promptTokensEstimate(1).stream(true).build(), now[0]);
        r.routedTo("llama", "m");
        r.picked(new PickDecision(pod, PickReason.LEAST_LOADED, 0, 2), 5_000);
        listeners.picked(r);
        r.answered(200, now[0] += 50_000_000L);
        r.firstToken(now[0] += 50_000_000L);
        now[0] += 9 * 20_000_000L;
        r.usage(40, 10, 32);
        r.end(RequestRecord.Ending.COMPLETED, now[0]);
        listeners.ended(r);
        return r;
    }

    double count(String name, String... tags) {
        return registry.find(name).tags(tags).counters().stream().mapToDouble(c -> c.count()).sum();
    }

    @Test
    void aServedStreamFeedsEveryHistogramOnce() throws Exception {
        try (Gateway gateway = gateway()) {
            served(gateway, A);
            assertThat(count("inference_objective_request", "pod", A.toString(), "status", "200")).isEqualTo(1);
            assertThat(registry.find("inference_objective_request_ttft").timer().mean(java.util.concurrent.TimeUnit.MILLISECONDS))
                    .isEqualTo(100);
            assertThat(registry.find("inference_objective_request_tpot").timer().mean(java.util.concurrent.TimeUnit.MILLISECONDS))
                    .isEqualTo(20);
            assertThat(registry.find("inference_objective_input_tokens").summary().totalAmount()).isEqualTo(40);
            assertThat(registry.find("inference_objective_cached_tokens").summary().totalAmount()).isEqualTo(32);
            assertThat(count("inference_gateway_prefix_predictions", "outcome", "unexpected_hit")).isEqualTo(1);
            assertThat(registry.find("inference_objective_running_requests").gauge().value()).isZero();
        }
    }

    @Test
    void aRefusalCountsAsAnErrorWithoutLatencyHistograms() throws Exception {
        try (Gateway gateway = gateway()) {
            RequestRecord r = new RequestRecord(now[0], 0, "POST", "/v1/chat/completions", "chat", null, null);
            gateway.requestListeners().started(r);
            r.failed(GatewayError.Reason.MODEL_NOT_FOUND, 404);
            r.end(RequestRecord.Ending.REFUSED, now[0]);
            gateway.requestListeners().ended(r);
            assertThat(count("inference_objective_request", "model_name", "unknown", "pod", "none", "status", "404"))
                    .isEqualTo(1);
            assertThat(count("inference_objective_request_error", "error_code", "model_not_found")).isEqualTo(1);
            assertThat(registry.find("inference_objective_request_ttft").timer().count()).isZero();
        }
    }

    @Test
    void perPodSeriesOfAPodThatLeftThePoolAreRemoved() throws Exception {
        try (Gateway gateway = gateway()) {
            served(gateway, A);
            served(gateway, B);
            ModelPool pool = gateway.pools().pool("llama");
            pool.updateEndpoints(List.of(B)); // discovery saw A go
            assertThat(registry.find("inference_objective_request").tag("pod", A.toString()).counters()).isEmpty();
            assertThat(registry.find("inference_gateway_scheduler_picks").tag("pod", A.toString()).counters()).isEmpty();
            assertThat(count("inference_objective_request", "pod", B.toString())).isEqualTo(1);
            served(gateway, B);
            assertThat(count("inference_gateway_scheduler_picks", "pod", B.toString())).isEqualTo(2);
        }
    }

    /**
     * A request with targets of 200 ms to the first token and 30 ms per token, admitted at {@code priority}: its first
     * token after {@code ttftMs} (a plain body: its end), then {@code tokens} output tokens {@code tpotMs} apart; a
     * {@code status} of 0 is a refusal of flow control.
     */
    RequestRecord targeted(Gateway gateway, boolean stream, int priority, long ttftMs, long tpotMs, int tokens,
            int status) {
        RequestListeners listeners = gateway.requestListeners();
        RequestRecord r = new RequestRecord(now[0], 0, "POST", "/v1/chat/completions", "chat", null, null);
        listeners.started(r);
        r.parsed(ParsedBody.builder("m").promptText("hi").promptTokensEstimate(1).stream(stream).build(), now[0]);
        r.routedTo("llama", "m");
        r.classified(InferenceRequest.builder("m").priority(priority).targets(new LatencyTargets(200, 30)).build());
        if (status == 0) { // refused at once: never admitted
            r.failed(GatewayError.Reason.OVERLOADED, 429);
            r.end(RequestRecord.Ending.REFUSED, now[0] += 1_000_000L);
        } else {
            r.admitted(0);
            r.picked(new PickDecision(A, PickReason.LEAST_LOADED, 0, 2), 5_000);
            listeners.picked(r);
            r.answered(status, now[0] + 1_000_000L);
            r.firstToken(now[0] += ttftMs * 1_000_000L);
            now[0] += Math.max(0, tokens - 1) * tpotMs * 1_000_000L;
            r.usage(40, tokens, 0);
            r.end(RequestRecord.Ending.COMPLETED, now[0]);
        }
        listeners.ended(r);
        return r;
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        // case,                              stream, priority, ttft ms, tpot ms, tokens, status, counted as
        "'a stream in time',                   true,  1,        150,     25,      10,     200,    met",
        "'a stream whose first token is late', true,  1,        250,     25,      10,     200,    ttft",
        "'a stream whose tokens are slow',     true,  0,        150,     40,      10,     200,    tpot",
        "'one token: no TPOT to judge',        true,  0,        150,     0,       1,      200,    met",
        "'a plain body: its end is its TTFT',  false, 0,        190,     0,       50,     200,    met",
        "'a plain body late',                  false, -1,       210,     0,       50,     200,    ttft",
        "'a 5xx of the model server',          true,  0,        50,      0,       0,      503,    refused",
        "'a 429 of flow control',              true,  -1,       0,       0,       0,      0,      refused",
    })
    void aRequestWithTargetsCountsAsAttainedOrAsMissedByKind(String name, boolean stream, int priority, long ttftMs,
            long tpotMs, int tokens, int status, String countedAs) throws Exception {
        try (Gateway gateway = gateway()) {
            targeted(gateway, stream, priority, ttftMs, tpotMs, tokens, status);
            String band = io.inferencegateway.domain.Priority.band(priority);
            double attained = count("inference_gateway_slo_attained", "pool", "llama", "model_name", "m", "priority",
                    band);
            double missed = count("inference_gateway_slo_missed", "pool", "llama", "model_name", "m", "priority", band);
            if (countedAs.equals("met")) {
                assertThat(attained).isEqualTo(1);
                assertThat(missed).isZero();
            } else {
                assertThat(attained).isZero();
                assertThat(count("inference_gateway_slo_missed", "priority", band, "kind", countedAs)).isEqualTo(1);
                assertThat(missed).as("one kind only").isEqualTo(1);
            }
            assertThat(registry.find("inference_gateway_slo_missed").tag("priority", band).counters())
                    .as("every kind is registered with the band's first request, for ratios").hasSize(3);
        }
    }

    @Test
    void aRequestWithoutTargetsIsNotJudged() throws Exception {
        try (Gateway gateway = gateway()) {
            served(gateway, A);
            assertThat(registry.find("inference_gateway_slo_attained").counters()).isEmpty();
            assertThat(registry.find("inference_gateway_slo_missed").counters()).isEmpty();
        }
    }
}
