package io.inferencegateway.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** A global tier's pool: its weights, its default profile, and the plugin form with the global plugin types. */
class GlobalSchedulerConfigTest {

    private static final String GLOBAL = """
            apiVersion: inferencegateway.io/v1alpha1
            kind: InferenceGatewayConfig
            metadata: {name: t}
            spec:
              global:
                region: us-east
                clusters:
                  - {name: east, url: "https://east.example", region: us-east, price: {input: 1, output: 2}}
                  - {name: west, url: "https://west.example", region: eu-west, price: {input: 0.5, output: 1}}
                providers:
                  - {name: openai, baseUrl: "https://api.example/v1", models: {llama: gpt-x}, price: {input: 3, output: 9}}
              schedulers:
            """;

    private static PoolConfig pool(String scheduler) throws InvalidConfigException {
        return ConfigLoader.parse(GLOBAL + scheduler).pools().get(0);
    }

    @Test
    void aPoolOfTargetsGetsTheDefaultGlobalProfileAndTheHomeRegion() throws Exception {
        PoolConfig pool = pool("    - {modelName: llama}\n");

        assertThat(pool.global()).isTrue();
        assertThat(pool.homeRegion()).isEqualTo("us-east");
        assertThat(pool.endpointPicker()).isEqualTo(GlobalWeights.DEFAULT.endpointPicker());
        assertThat(pool.endpointPicker().plugins()).extracting(PluginConfig::type).containsExactly("residency-filter",
                "target-health-filter", "overflow-filter", "kv-cache-scorer", "queue-depth-scorer",
                "region-proximity-scorer", "error-rate-scorer", "cost-scorer", "prefix-cache-scorer", "priority-scorer",
                "max-score-picker");
    }

    @Test
    void globalWeightsOverrideTheDefaultsOneByOneAndZeroLeavesTheScorerOut() throws Exception {
        PoolConfig pool = pool("    - {modelName: llama, weights: {cost: 5, regionProximity: 0, prefix: 2}}\n");

        assertThat(pool.endpointPicker()).isEqualTo(GlobalWeights.DEFAULT.with("cost", 5).with("regionProximity", 0)
                .with("prefix", 2).endpointPicker());
        assertThat(pool.endpointPicker().plugins()).extracting(PluginConfig::type)
                .doesNotContain("region-proximity-scorer");
    }

    @Test
    void thePluginFormTakesTheGlobalPluginTypesWithTheirParameters() throws Exception {
        PoolConfig pool = pool("""
                    - modelName: llama
                      plugins:
                        - {type: residency-filter}
                        - {type: overflow-filter, parameters: {saturationThreshold: 0.9, queueDepthThreshold: 8}}
                        - {type: cost-scorer, parameters: {outputTokens: 1000}}
                        - {type: priority-scorer}
                      schedulingProfiles:
                        - name: default
                          plugins:
                            - {pluginRef: residency-filter}
                            - {pluginRef: overflow-filter}
                            - {pluginRef: cost-scorer, weight: 3}
                            - {pluginRef: priority-scorer, weight: 6}
                """);

        assertThat(pool.endpointPicker().profile().plugins()).extracting(ProfileConfig.ProfileEntry::pluginRef)
                .containsExactly("residency-filter", "overflow-filter", "cost-scorer", "priority-scorer",
                        "max-score-picker");
    }

    static Stream<Arguments> invalid() {
        return Stream.of(
                Arguments.of("a pod weight on a pool of targets", "    - {modelName: llama, weights: {queue: 2}}\n",
                        "spec.schedulers[0].weights.queue is a weight for a pool of pods; a pool of clusters and "
                                + "providers takes kvHeadroom, queueDepth, regionProximity, errorRate, cost, prefix, "
                                + "priority"),
                Arguments.of("an unknown weight on a pool of targets", "    - {modelName: llama, weights: {speed: 2}}\n",
                        "spec.schedulers[0].weights.speed is not a known weight (kvHeadroom, queueDepth"),
                Arguments.of("a negative global weight", "    - {modelName: llama, weights: {cost: -1}}\n",
                        "spec.schedulers[0].weights.cost must be a non-negative integer"),
                Arguments.of("a pod profile on a pool of targets", "    - {modelName: llama, profile: latency}\n",
                        "spec.schedulers[0].profile selects weights for a pool of pods"),
                Arguments.of("a global weight on a pool of pods",
                        "    - {modelName: llama, endpoints: [\"h:1\"], weights: {regionProximity: 1}}\n",
                        "spec.schedulers[0].weights.regionProximity is a weight for a pool of clusters and providers "
                                + "(spec.global); a pool of pods takes queue, kvCache"),
                Arguments.of("a global plugin's parameter out of range", """
                            - modelName: llama
                              plugins:
                                - {type: residency-filter}
                                - {type: overflow-filter, parameters: {saturationThreshold: 1.5}}
                        """, "spec.schedulers[0].plugins[1].parameters.saturationThreshold must be between 0 and 1"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalid")
    void invalidGlobalSchedulersAreRejectedNamingThePath(String scenario, String scheduler, String expected) {
        assertThatThrownBy(() -> pool(scheduler)).isInstanceOf(InvalidConfigException.class)
                .hasMessageStartingWith(expected);
    }
}
