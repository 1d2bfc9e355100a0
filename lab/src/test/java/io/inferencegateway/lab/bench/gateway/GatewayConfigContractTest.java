package io.inferencegateway.lab.bench.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.inferencegateway.lab.bench.Scenario;
import io.inferencegateway.lab.bench.ScenarioCatalog;
import io.inferencegateway.lab.bench.fleet.ExternalServers;
import io.inferencegateway.lab.bench.fleet.FleetSpec;
import io.inferencegateway.lab.bench.fleet.ServerEngine;
import io.inferencegateway.config.ConfigLoader;
import io.inferencegateway.config.GatewayConfig;
import io.inferencegateway.config.PoolConfig;
import io.inferencegateway.config.ReplicaConfig.Coordination;
import io.inferencegateway.config.Weights;

/**
 * The bench renders the gateway config without the gateway's classes; this test (test code only) checks
 * the gateway's own validator accepts what it renders, for every scenario and policy.
 */
class GatewayConfigContractTest {

    static Stream<Arguments> scenariosAndPolicies() {
        List<Arguments> cases = new ArrayList<>();
        for (Scenario scenario : ScenarioCatalog.all(ScenarioCatalog.DEFAULT_MODEL)) {
            for (String policy : List.of("gpu-aware", "round-robin", "least-request", "random")) {
                for (double scale : new double[] {0.25, 1, 8}) {
                    cases.add(Arguments.of(scenario.name(), policy, scale, scenario));
                }
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} / {1} / time scale {2}")
    @MethodSource("scenariosAndPolicies")
    void theGatewayAcceptsTheRenderedConfig(String name, String policy, double scale, Scenario scenario)
            throws Exception {
        List<InetSocketAddress> pods = new ArrayList<>();
        for (int i = 0; i < scenario.fleet().pods().size(); i++) {
            pods.add(new InetSocketAddress("127.0.0.1", 9001 + i));
        }
        String yaml = GatewayConfigWriter.render(scenario.fleet().withTimeScale(scale), policy, pods,
                Duration.ofSeconds(300), GatewayConfigWriter.DEFAULT_METRICS_INTERVAL);

        GatewayConfig config = ConfigLoader.parse(yaml);

        assertThat(config.pools()).hasSize(1);
        PoolConfig pool = config.pools().get(0);
        assertThat(pool.modelName()).isEqualTo(scenario.fleet().modelName());
        assertThat(pool.loraAdapters()).isEqualTo(scenario.fleet().loraAdapters());
        assertThat(pool.endpoints()).hasSize(pods.size());
        assertThat(pool.endpoints().get(0).port()).isEqualTo(9001);
        assertThat(pool.policy().configName()).isEqualTo(policy);
        assertThat(pool.routeTimeout().toMillis()).isBetween(Math.round(300_000 / scale), Math.round(300_000 / scale) + 999);
        assertThat(pool.flowControl().queueTimeout()).as("waits in simulated time, as long as for a response")
                .isEqualTo(pool.routeTimeout());
        assertThat(pool.flowControl().enabled()).as("on only when asked (bench --flow-control)").isFalse();
    }

    @ParameterizedTest(name = "{0} servers under {1}")
    @org.junit.jupiter.params.provider.CsvSource({"LLAMACPP, gpu-aware", "VLLM, round-robin", "SGLANG, least-request",
            "TGI, gpu-aware", "TRTLLM, gpu-aware"})
    void theGatewayAcceptsAUsersOwnServersWithTheirEngine(ServerEngine engine, String policy) throws Exception {
        ExternalServers servers = new ExternalServers(engine, List.of(new InetSocketAddress("127.0.0.1", 8081),
                new InetSocketAddress("127.0.0.1", 8082)));
        Scenario uniform = ScenarioCatalog.byName("uniform", "Qwen/Qwen2.5-0.5B-Instruct").orElseThrow();
        String yaml = GatewayConfigWriter.render(FleetSpec.onServers(servers, uniform.fleet()), policy,
                servers.endpoints(), Duration.ofSeconds(300), GatewayConfigWriter.DEFAULT_METRICS_INTERVAL, null, true,
                false);

        PoolConfig pool = ConfigLoader.parse(yaml).pools().get(0);

        assertThat(pool.engine()).isEqualTo(engine.label());
        assertThat(pool.modelName()).isEqualTo("Qwen/Qwen2.5-0.5B-Instruct");
        assertThat(pool.endpoints()).hasSize(2);
        assertThat(pool.routeTimeout()).isEqualTo(Duration.ofSeconds(300));
    }

    @ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.CsvSource({"gpu-aware-no-slo, 0", "gpu-aware, 2"})
    void theSloComparisonDiffersInTheLatencyWeightAlone(String label, int latencyWeight) throws Exception {
        Scenario slo = ScenarioCatalog.byName("slo", ScenarioCatalog.DEFAULT_MODEL).orElseThrow();
        List<InetSocketAddress> pods = List.of(new InetSocketAddress("127.0.0.1", 9001));
        String yaml = GatewayConfigWriter.render(slo.fleet(), label, pods, Duration.ofSeconds(300),
                GatewayConfigWriter.DEFAULT_METRICS_INTERVAL, null, false, true);

        PoolConfig pool = ConfigLoader.parse(yaml).pools().get(0);

        assertThat(pool.policy().configName()).isEqualTo("gpu-aware");
        assertThat(pool.endpointPicker()).isEqualTo(Weights.DEFAULT.with("latency", latencyWeight).endpointPicker());
        assertThat(pool.flowControl().enabled()).isTrue();
    }

    @ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.EnumSource(ReplicaMode.class)
    void theGatewayReadsTheReplicaModesAsMeant(ReplicaMode mode) throws Exception {
        Scenario scenario = ScenarioCatalog.byName("shared-prefix", ScenarioCatalog.DEFAULT_MODEL).orElseThrow();
        List<InetSocketAddress> pods = List.of(new InetSocketAddress("127.0.0.1", 9001));
        String yaml = GatewayConfigWriter.render(scenario.fleet(), "gpu-aware", pods, Duration.ofSeconds(300),
                GatewayConfigWriter.DEFAULT_METRICS_INTERVAL, mode.section(3, "redis://127.0.0.1:6400"), false);

        PoolConfig pool = ConfigLoader.parse(yaml).pools().get(0);

        assertThat(pool.replicas().count()).isEqualTo(mode == ReplicaMode.NAIVE ? 1 : 3);
        assertThat(pool.replicas().placement()).isEqualTo(switch (mode) {
            case NAIVE -> Coordination.INDEPENDENT;
            case SHARED -> Coordination.SHARED;
            default -> Coordination.RENDEZVOUS;
        });
        assertThat(pool.scrapeInterval()).isEqualTo(mode == ReplicaMode.RENDEZVOUS || mode == ReplicaMode.SHARED
                ? pool.metricsInterval().multipliedBy(3) : pool.metricsInterval());
    }

    @org.junit.jupiter.api.Test
    void theAccessLogOptionTurnsOnTheGatewaysAccessLog() throws Exception {
        Scenario faults = io.inferencegateway.lab.bench.ScenarioCatalog.byName("faults",
                io.inferencegateway.lab.bench.ScenarioCatalog.DEFAULT_MODEL).orElseThrow();
        List<InetSocketAddress> pods = new ArrayList<>();
        for (int i = 0; i < faults.fleet().pods().size(); i++) {
            pods.add(new InetSocketAddress("127.0.0.1", 9001 + i));
        }
        String on = GatewayConfigWriter.render(faults.fleet(), "gpu-aware", pods, Duration.ofSeconds(300),
                GatewayConfigWriter.DEFAULT_METRICS_INTERVAL, null, true);
        String off = GatewayConfigWriter.render(faults.fleet(), "gpu-aware", pods, Duration.ofSeconds(300),
                GatewayConfigWriter.DEFAULT_METRICS_INTERVAL);
        assertThat(ConfigLoader.parse(on).observability().accessLog()).isTrue();
        assertThat(ConfigLoader.parse(off).observability().accessLog()).isFalse();
    }
}
