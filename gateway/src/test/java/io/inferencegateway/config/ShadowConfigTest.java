package io.inferencegateway.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** A scheduler entry's {@code shadow} section: what it becomes, and each mistake with the path it names. */
class ShadowConfigTest {

    private static final String HEAD = """
            kind: InferenceGatewayConfig
            spec:
              schedulers:
            """;
    /** The candidate pool: a second model, and an adapter of it. */
    private static final String CANDIDATES = "    - {modelName: llama-3-8b-v2, loraAdapters: [sql-v2], endpoints: ['h:2']}\n";

    private static GatewayConfig load(String shadow) throws InvalidConfigException {
        return ConfigLoader.parse(HEAD + "    - {modelName: llama-3-8b, endpoints: ['h:1'], shadow: " + shadow + "}\n"
                + CANDIDATES);
    }

    @Test
    void aShadowNamesItsCandidateItsShareAndItsBudget() throws Exception {
        GatewayConfig config = load("{model: llama-3-8b-v2, percent: 5, maxInFlight: 3}");

        assertThat(config.pools().get(0).shadow()).isEqualTo(new ShadowConfig("llama-3-8b-v2", 5, 3));
        assertThat(config.pools().get(1).shadow()).isEqualTo(ShadowConfig.OFF);
        assertThat(config.pools().get(1).shadow().enabled()).isFalse();
    }

    @Test
    void theBudgetDefaultsToEightAndAnAdapterMayBeTheCandidate() throws Exception {
        assertThat(load("{model: sql-v2, percent: 0.5}").pools().get(0).shadow())
                .isEqualTo(new ShadowConfig("sql-v2", 0.5, 8));
    }

    @Test
    void aPoolBuiltWithoutAShadowHasNone() {
        assertThat(PoolConfig.builder("m").build().shadow()).isEqualTo(ShadowConfig.OFF);
    }

    static Stream<Arguments> mistakes() {
        return Stream.of(
                Arguments.of("no model", "{percent: 5}", "spec.schedulers[0].shadow.model is required"),
                Arguments.of("no percent", "{model: llama-3-8b-v2}", "spec.schedulers[0].shadow.percent is required "
                        + "(the share of the pool's requests copied, e.g. 5)"),
                Arguments.of("zero percent", "{model: llama-3-8b-v2, percent: 0}",
                        "spec.schedulers[0].shadow.percent must be more than 0 and at most 100, got 0.0"),
                Arguments.of("over 100 percent", "{model: llama-3-8b-v2, percent: 150}",
                        "spec.schedulers[0].shadow.percent must be more than 0 and at most 100, got 150.0"),
                Arguments.of("no budget", "{model: llama-3-8b-v2, percent: 5, maxInFlight: 0}",
                        "spec.schedulers[0].shadow.maxInFlight must be 1..10000, got 0"),
                Arguments.of("a candidate nobody serves", "{model: llama-3-8b-v3, percent: 5}",
                        "spec.schedulers[0].shadow.model 'llama-3-8b-v3' is served by no pool (no scheduler's "
                                + "modelName or loraAdapters names it)"),
                Arguments.of("the pool's own model", "{model: llama-3-8b, percent: 5}",
                        "spec.schedulers[0].shadow.model 'llama-3-8b' is the model this pool serves; a shadow copies "
                                + "requests to another model or adapter"),
                Arguments.of("a misspelt field", "{model: llama-3-8b-v2, percent: 5, maxInflight: 2}",
                        "spec.schedulers[0].shadow.maxInflight is not a known field; did you mean maxInFlight?"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("mistakes")
    void aMistakeNamesItsPath(String scenario, String shadow, String message) {
        assertThatThrownBy(() -> load(shadow)).isInstanceOf(InvalidConfigException.class).hasMessage(message);
    }

    @Test
    void aCandidateOnAPoolOfClustersAndProvidersIsRefused() {
        String yaml = """
                kind: InferenceGatewayConfig
                spec:
                  global:
                    region: r1
                    clusters: [{name: east, url: "http://east:1", region: r1}]
                  schedulers:
                    - {modelName: a, endpoints: ['h:1'], shadow: {model: b, percent: 5}}
                    - {modelName: b}
                """;
        assertThatThrownBy(() -> ConfigLoader.parse(yaml)).hasMessage("spec.schedulers[0].shadow.model 'b' is served "
                + "by pool 'b' of clusters and providers; shadow copies go to pods only");
    }
}
