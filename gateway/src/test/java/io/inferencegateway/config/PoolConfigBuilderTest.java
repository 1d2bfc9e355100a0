package io.inferencegateway.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.inferencegateway.domain.Endpoint;

/** A field the builder is not told takes the value the loader gives a scheduler entry that omits it. */
class PoolConfigBuilderTest {

    private static PoolConfig loaded(String scheduler) throws InvalidConfigException {
        return ConfigLoader.parse("""
                apiVersion: inferencegateway.io/v1alpha1
                kind: InferenceGatewayConfig
                metadata: {name: t}
                spec:
                  schedulers:
                    - %s
                """.formatted(scheduler)).pools().get(0);
    }

    @Test
    void aPoolOfOnlyAModelAndEndpointsEqualsTheOneTheLoaderMakes() throws InvalidConfigException {
        PoolConfig built = PoolConfig.builder("m").endpoints(List.of(Endpoint.parse("h:1"))).build();

        assertThat(built).isEqualTo(loaded("{modelName: m, endpoints: ['h:1']}"));
    }

    @Test
    void theDefaultStalenessFollowsTheIntervalThisReplicaScrapesAt() throws InvalidConfigException {
        PoolConfig loaded = loaded("{modelName: m, endpoints: ['h:1'], metricsInterval: 100ms, replicas: {count: 3}}");

        PoolConfig built = PoolConfig.builder("m").endpoints(List.of(Endpoint.parse("h:1")))
                .metricsInterval(Duration.ofMillis(100)).replicas(loaded.replicas()).build();

        assertThat(built.metricsStalenessThreshold()).isEqualTo(Duration.ofMillis(1200)).isEqualTo(
                loaded.metricsStalenessThreshold());
        assertThat(built).isEqualTo(loaded);
    }

    @Test
    void whatItIsToldOverridesTheDefaults() throws InvalidConfigException {
        PoolConfig built = PoolConfig.builder("m").name("pool").endpoints(List.of(Endpoint.parse("h:1")))
                .engine("sglang").policy(Policy.LEAST_REQUEST).weights(Weights.forProfile("throughput"))
                .metricsStalenessThreshold(Duration.ofSeconds(1)).streamUsage(true).build();

        assertThat(built).isEqualTo(loaded("{name: pool, modelName: m, endpoints: ['h:1'], engineType: sglang, "
                + "policy: least-request, profile: throughput, metricsStalenessThreshold: 1s, streamUsage: true}"));
    }
}
