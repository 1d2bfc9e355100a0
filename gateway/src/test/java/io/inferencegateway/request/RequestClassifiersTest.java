package io.inferencegateway.request;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import io.inferencegateway.config.FlowControlConfig;
import io.inferencegateway.config.SloConfig;
import io.inferencegateway.config.TenantConfig;
import io.inferencegateway.domain.GatewayError;
import io.inferencegateway.domain.LatencyTargets;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;

/**
 * Where a request's priority, latency targets and fairness key come from: the header, else the tenant, else the
 * pool's config.
 */
class RequestClassifiersTest {

    static final FlowControlConfig CONFIG = new FlowControlConfig(true, 10, Duration.ofSeconds(30),
            Duration.ofSeconds(1), 0, Map.of("sql-lora", 1), true);
    /** A request for the adapter {@code sql-lora}, by its name. */
    static final String SQL = "sql-lora";
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
        assertThat(PriorityClassifier.priority(CONFIG, SQL, headers("x-gateway-priority", "7"), BATCH))
                .isEqualTo(7);
        assertThat(PriorityClassifier.priority(CONFIG, SQL, headers(), BATCH)).isEqualTo(-1);
        assertThat(PriorityClassifier.priority(CONFIG, SQL, headers(), null)).isEqualTo(1);
        assertThat(PriorityClassifier.priority(CONFIG, "base", null, null)).isZero();
    }

    @Test
    void withTheHeaderTurnedOffClientsCannotChooseTheirPriority() {
        FlowControlConfig noHeader = new FlowControlConfig(true, 10, Duration.ofSeconds(30), Duration.ofSeconds(1), 0,
                Map.of(), false);

        assertThat(PriorityClassifier.priority(noHeader, SQL, headers("x-gateway-priority", "critical"), BATCH))
                .isEqualTo(-1);
    }

    @Test
    void theFairnessKeyIsTheHeaderElseTheTenantAndALongOneIsRefused() {
        assertThat(FairnessKeyClassifier.fairnessKey(headers("x-gateway-fairness-id", "user-7"), BATCH))
                .isEqualTo("user-7");
        assertThat(FairnessKeyClassifier.fairnessKey(headers(), BATCH)).isEqualTo("batch-team");
        assertThat(FairnessKeyClassifier.fairnessKey(headers(), null)).isNull();
        assertThatThrownBy(() -> FairnessKeyClassifier.fairnessKey(headers("x-gateway-fairness-id", "k".repeat(129)),
                null))
                .isInstanceOf(GatewayError.class).hasMessageContaining("128");
    }

    static final SloConfig POOL_SLO = new SloConfig(new LatencyTargets(10_000, 0),
            Map.of("sql-lora", new LatencyTargets(1_000, 80)));
    static final TenantConfig CHAT_TEAM = new TenantConfig("chat-team", null, null, 0, TenantConfig.Limits.NONE,
            List.of(), new LatencyTargets(300, 0));

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "headers win, each on its own         | 200 | 20 | chat-team | sql-lora | 200 | 20",
            "the header's TTFT, the tenant's none | 200 |    | chat-team | sql-lora | 200 | 80",
            "the tenant's TTFT, the model's TPOT  |     |    | chat-team | sql-lora | 300 | 80",
            "the adapter's targets                |     |    |           | sql-lora | 1000 | 80",
            "the pool's default for the base model |    |    |           | base     | 10000 | 0"})
    void targetsComeFromTheHeadersThenTheTenantThenTheModelThenThePool(String why, String ttft, String tpot,
            String tenant, String model, long wantTtft, long wantTpot) {
        HttpHeaders h = headers();
        if (ttft != null) {
            h.add("x-slo-ttft-ms", ttft);
        }
        if (tpot != null) {
            h.add("x-slo-tpot-ms", tpot);
        }
        assertThat(LatencyTargetsClassifier.targets(POOL_SLO, model, h, tenant == null ? null : CHAT_TEAM))
                .isEqualTo(new LatencyTargets(wantTtft, wantTpot));
    }

    @ParameterizedTest
    @ValueSource(strings = {"fast", "0", "-5", "1.5", "3600001", ""})
    void aBadTargetHeaderIsA400ThatNamesIt(String value) {
        assertThatThrownBy(() -> LatencyTargetsClassifier.targets(SloConfig.NONE, SQL, headers("x-slo-tpot-ms", value),
                null))
                .isInstanceOfSatisfying(GatewayError.class, e -> {
                    assertThat(e.reason()).isEqualTo(GatewayError.Reason.INVALID_REQUEST);
                    assertThat(e.getMessage()).contains("x-slo-tpot-ms").contains("'" + value + "'");
                });
    }
}
