package io.inferencegateway.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.testing.GatewayHarness;
import io.inferencegateway.testing.TestUpstream;

class PoolRoutesTest {

    @Test
    void everyPoolGetsAMetricsScrapeRouteThatFillsTheCache() throws Exception {
        try (TestUpstream upstream = new TestUpstream();
                GatewayHarness gateway = GatewayHarness.start(GatewayHarness.config("m", "gpu-aware", upstream.address()))) {
            assertThat(gateway.server().camelContext().getRoute("metrics-scrape-pool")).isNotNull();
            Endpoint e = Endpoint.parse(upstream.address());
            await().atMost(Duration.ofSeconds(10)).until(() -> gateway.server().gateway().metrics().latest(e) != null);
            assertThat(gateway.server().gateway().metrics().latest(e).waiting()).isZero();
        }
    }
}
