package io.inferencegateway.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.inferencegateway.config.ConfigLoader;
import io.inferencegateway.config.GatewayConfig;
import io.inferencegateway.config.Policy;

class DemoCommandTest {

    @Test
    void demoConfigIsValidAndUsesTheGpuAwarePolicy() throws Exception {
        GatewayConfig c = ConfigLoader.parse(DemoCommand.config(List.of("127.0.0.1:9001", "127.0.0.1:9002"),
                List.of("a-lora-0", "a-lora-1")));
        assertThat(c.pools()).singleElement().satisfies(p -> {
            assertThat(p.policy()).isEqualTo(Policy.GPU_AWARE);
            assertThat(p.endpoints()).hasSize(2);
            assertThat(p.loraAdapters()).containsExactly("a-lora-0", "a-lora-1");
        });
    }
}
