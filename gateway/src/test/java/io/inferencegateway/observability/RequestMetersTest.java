package io.inferencegateway.observability;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.inferencegateway.config.ConfigLoader;
import io.inferencegateway.runtime.Gateway;
import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.GatewayError;
import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.domain.PickDecision;
import io.inferencegateway.domain.PickReason;
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
        r.parsed(new InferenceRequest("m", null, "hi", 1, true), now[0]);
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
}
