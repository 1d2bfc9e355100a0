package io.inferencegateway.lab.bench.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.inferencegateway.config.ConfigLoader;
import io.inferencegateway.config.GatewayConfig;
import io.inferencegateway.config.PoolConfig;
import io.inferencegateway.lab.bench.RolloutScenarioAccess;
import io.inferencegateway.lab.bench.fleet.FleetSpec;

class RolloutConfigWriterTest {

    private static String render(double timeScale) {
        FleetSpec v1 = RolloutScenarioAccess.standardBaseline().withTimeScale(timeScale);
        FleetSpec v2 = v1.withModelName("llama-v2");
        return RolloutConfigWriter.render(v1, List.of(new InetSocketAddress("127.0.0.1", 9001),
                        new InetSocketAddress("127.0.0.1", 9002)), v2, List.of(new InetSocketAddress("127.0.0.1", 9003)),
                RolloutScenarioAccess.standardPlan(), Duration.ofSeconds(30), Duration.ofMillis(50));
    }

    @Test
    void onePoolPerVersionAndARewriteOfTheClientsNameWithItsRolloutInWallTime() {
        String yaml = render(2.0);
        assertThat(yaml).contains("""
                  modelRewrites:
                  - name: chat
                    rules:
                    - targets:
                      - model: llama-v1
                        weight: 99
                      - model: llama-v2
                        weight: 1
                    rollout:
                      baseline: llama-v1
                      candidate: llama-v2
                      steps:
                      - weight: 1
                        duration: 10000ms
                      - weight: 5
                        duration: 10000ms
                      - weight: 25
                        duration: 10000ms
                      - weight: 100
                      analysis:
                        minSamples: 20
                        interval: 500ms
                        errorRate: 0.01
                        ttftP90: 1.5
                        tpotP90: 1.5
                """);
    }

    @Test
    void theGatewayAcceptsTheRenderedConfig() throws Exception {
        GatewayConfig config = ConfigLoader.parse(render(1.0));
        assertThat(config.pools()).extracting(PoolConfig::modelName).containsExactly("llama-v1", "llama-v2");
        assertThat(config.pools().get(0).endpoints()).hasSize(2);
        assertThat(config.pools().get(1).endpoints()).hasSize(1);
        assertThat(config.modelRewrites()).hasSize(1);
        assertThat(config.modelRewrites().get(0).name()).isEqualTo("chat");
        assertThat(config.modelRewrites().get(0).rollout().candidate()).isEqualTo("llama-v2");
        assertThat(config.modelRewrites().get(0).rollout().steps()).extracting(s -> s.weight())
                .containsExactly(1, 5, 25, 100);
    }
}
