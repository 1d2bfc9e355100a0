package io.inferencegateway.camel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.inferencegateway.config.FlowControlConfig;
import io.inferencegateway.config.TenantConfig;
import io.inferencegateway.domain.GatewayError;
import io.inferencegateway.domain.InferenceRequest;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;

/** Where a request's priority and fairness key come from: the header, else the tenant, else the pool's config. */
class AdmitRequestTest {

    static final FlowControlConfig CONFIG = new FlowControlConfig(true, 10, Duration.ofSeconds(30),
            Duration.ofSeconds(1), 0, Map.of("sql-lora", 1), true);
    static final InferenceRequest SQL = new InferenceRequest("sql-lora", "sql-lora", "q", 1, true);
    static final TenantConfig BATCH = new TenantConfig("batch-team", null, null, -1, TenantConfig.Limits.NONE,
            List.of(), null);

    static HttpHeaders headers(String... nameValues) {
        HttpHeaders h = new DefaultHttpHeaders();
        for (int i = 0; i < nameValues.length; i += 2) {
            h.add(nameValues[i], nameValues[i + 1]);
        }
        return h;
    }

    @Test
    void theHeaderWinsThenTheTenantThenTheModelsPriority() {
        assertThat(AdmitRequest.priority(CONFIG, SQL, headers("x-gateway-priority", "7"), BATCH)).isEqualTo(7);
        assertThat(AdmitRequest.priority(CONFIG, SQL, headers(), BATCH)).isEqualTo(-1);
        assertThat(AdmitRequest.priority(CONFIG, SQL, headers(), null)).isEqualTo(1);
        assertThat(AdmitRequest.priority(CONFIG, new InferenceRequest("base", null, "q", 1, true), null, null))
                .isZero();
    }

    @Test
    void withTheHeaderTurnedOffClientsCannotChooseTheirPriority() {
        FlowControlConfig noHeader = new FlowControlConfig(true, 10, Duration.ofSeconds(30), Duration.ofSeconds(1), 0,
                Map.of(), false);

        assertThat(AdmitRequest.priority(noHeader, SQL, headers("x-gateway-priority", "critical"), BATCH))
                .isEqualTo(-1);
    }

    @Test
    void theFairnessKeyIsTheHeaderElseTheTenantAndALongOneIsRefused() {
        assertThat(AdmitRequest.fairnessKey(headers("x-gateway-fairness-id", "user-7"), BATCH)).isEqualTo("user-7");
        assertThat(AdmitRequest.fairnessKey(headers(), BATCH)).isEqualTo("batch-team");
        assertThat(AdmitRequest.fairnessKey(headers(), null)).isNull();
        assertThatThrownBy(() -> AdmitRequest.fairnessKey(headers("x-gateway-fairness-id", "k".repeat(129)), null))
                .isInstanceOf(GatewayError.class).hasMessageContaining("128");
    }
}
