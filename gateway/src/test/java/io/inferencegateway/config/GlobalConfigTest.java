package io.inferencegateway.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.Price;
import io.inferencegateway.domain.Residency;

class GlobalConfigTest {

    private static final String MODEL = "meta-llama/Llama-3.1-8B-Instruct";
    private static final String HEAD = """
            apiVersion: inferencegateway.io/v1alpha1
            kind: InferenceGatewayConfig
            metadata: {name: global}
            spec:
            """;
    private static final String GLOBAL = """
              global:
                region: us-east-1
                clusterTokenFile: /etc/gateway/cluster/token
                clusters:
                  - {name: us-east, url: "http://gw-us-east:8080", region: us-east-1, price: {input: 0.1, output: 0.4}}
                  - {name: eu-west, url: "https://gw.eu-west.example.com", region: eu-west-1}
                providers:
                  - name: overflow-ai
                    baseUrl: https://api.overflow.example.com/v1
                    apiKeyFile: /etc/gateway/providers/overflow-ai
                    models: {"meta-llama/Llama-3.1-8B-Instruct": llama-3.1-8b}
                    price: {input: 0.2, output: 0.8}
            """;

    private static GatewayConfig parse(String spec) throws InvalidConfigException {
        return ConfigLoader.parse(HEAD + spec);
    }

    @Test
    void aPoolWithoutPodsIsServedByEveryClusterAndTheProvidersThatMapItsModel() throws Exception {
        GatewayConfig c = parse(GLOBAL + """
                  schedulers:
                    - modelName: meta-llama/Llama-3.1-8B-Instruct
                    - modelName: other-model
                """);
        GlobalConfig g = c.global();
        assertThat(g.enabled()).isTrue();
        assertThat(g.region()).isEqualTo("us-east-1");
        assertThat(g.clusterTokenFile()).isEqualTo(Path.of("/etc/gateway/cluster/token"));
        assertThat(g.summaryInterval()).isEqualTo(GlobalConfig.DEFAULT_SUMMARY_INTERVAL);

        PoolConfig llama = c.pools().get(0);
        assertThat(llama.global()).isTrue();
        assertThat(llama.targets()).extracting(TargetConfig::name).containsExactly("us-east", "eu-west", "overflow-ai");
        assertThat(llama.endpoints()).containsExactly(new Endpoint("gw-us-east", 8080),
                new Endpoint("gw.eu-west.example.com", 443), new Endpoint("api.overflow.example.com", 443));
        assertThat(llama.engine()).isEqualTo(PoolConfig.GATEWAY_ENGINE);
        assertThat(llama.metricsInterval()).isEqualTo(GlobalConfig.DEFAULT_SUMMARY_INTERVAL);
        assertThat(c.pools().get(1).targets()).extracting(TargetConfig::name).containsExactly("us-east", "eu-west");

        TargetConfig east = llama.target(new Endpoint("gw-us-east", 8080));
        assertThat(east.kind()).isEqualTo(TargetConfig.Kind.CLUSTER);
        assertThat(east.https()).isFalse();
        assertThat(east.price()).isEqualTo(new Price(0.1, 0.4));
        assertThat(llama.target(new Endpoint("gw.eu-west.example.com", 443)).price()).isEqualTo(Price.FREE);
        TargetConfig provider = g.target("overflow-ai");
        assertThat(provider.provider()).isTrue();
        assertThat(provider.https()).isTrue();
        assertThat(provider.apiKeyFile()).isEqualTo(Path.of("/etc/gateway/providers/overflow-ai"));
        assertThat(provider.remoteModel(MODEL)).isEqualTo("llama-3.1-8b");
    }

    @Test
    void aProviderBaseUrlReplacesTheClientsV1AndAClusterPathGoesBeforeIt() throws Exception {
        GatewayConfig c = parse("""
                  global:
                    region: r1
                    clusters: [{name: a, url: "http://gw-a:8080/inference", region: r1}]
                    providers:
                      - {name: p, baseUrl: "https://api.p.example.com/openai/v1/", models: {m: remote-m}}
                  schedulers: [{modelName: m}]
                """);
        assertThat(c.global().target("p").upstreamUri("/v1/chat/completions"))
                .isEqualTo("/openai/v1/chat/completions");
        assertThat(c.global().target("a").upstreamUri("/v1/chat/completions"))
                .isEqualTo("/inference/v1/chat/completions");
    }

    @Test
    void aPoolCanNameItsTargets() throws Exception {
        GatewayConfig c = parse(GLOBAL + """
                  schedulers:
                    - {modelName: meta-llama/Llama-3.1-8B-Instruct, targets: [eu-west, overflow-ai]}
                """);
        assertThat(c.pools().get(0).targets()).extracting(TargetConfig::name).containsExactly("eu-west", "overflow-ai");
    }

    @Test
    void aTenantIsPinnedToRegionsAndBarredFromProviders() throws Exception {
        GatewayConfig c = parse(GLOBAL + """
                  schedulers: [{modelName: meta-llama/Llama-3.1-8B-Instruct}]
                  tenants:
                    - {name: eu-bank, regions: [eu-west-1], providers: false}
                    - {name: anyone}
                """);
        Residency pinned = c.tenant("eu-bank").residency();
        assertThat(pinned.allows("eu-west-1", false)).isTrue();
        assertThat(pinned.allows("us-east-1", false)).isFalse();
        assertThat(pinned.allows("eu-west-1", true)).isFalse();
        assertThat(c.tenant("anyone").residency()).isEqualTo(Residency.ANY);
    }

    static Stream<Arguments> refused() {
        return Stream.of(
                Arguments.of("a target list without spec.global", """
                          schedulers: [{modelName: m, targets: [a]}]
                        """, "spec.schedulers[0].targets names clusters or providers, which spec.global declares"),
                Arguments.of("a cluster without a region", """
                          global: {region: r, clusters: [{name: a, url: "http://a:1"}]}
                          schedulers: [{modelName: m}]
                        """, "spec.global.clusters[0].region is required"),
                Arguments.of("a URL that is not http", """
                          global: {region: r, clusters: [{name: a, url: "ftp://a:1", region: r}]}
                          schedulers: [{modelName: m}]
                        """, "spec.global.clusters[0].url must be an http(s) URL"),
                Arguments.of("two targets with one name", """
                          global: {region: r, clusters: [{name: a, url: "http://a:1", region: r},
                                                         {name: a, url: "http://b:1", region: r}]}
                          schedulers: [{modelName: m}]
                        """, "spec.global.clusters[1].name 'a' duplicates spec.global.clusters[0].name"),
                Arguments.of("two targets at one address", """
                          global: {region: r, clusters: [{name: a, url: "http://a:1", region: r},
                                                         {name: b, url: "http://a:1/x", region: r}]}
                          schedulers: [{modelName: m}]
                        """, "spec.global.clusters[1].url a:1 is also spec.global.clusters[0].url"),
                Arguments.of("a negative price", """
                          global: {region: r, clusters: [{name: a, url: "http://a:1", region: r, price: {input: -1}}]}
                          schedulers: [{modelName: m}]
                        """, "spec.global.clusters[0].price.input must be a price per million tokens"),
                Arguments.of("a provider without models", """
                          global: {region: r, providers: [{name: p, baseUrl: "https://p/v1"}]}
                          schedulers: [{modelName: m}]
                        """, "spec.global.providers[0].models must map at least one local model name"),
                Arguments.of("an unknown target", """
                          global: {region: r, clusters: [{name: a, url: "http://a:1", region: r}]}
                          schedulers: [{modelName: m, targets: [b]}]
                        """, "spec.schedulers[0].targets[0] 'b' is not a cluster or provider of spec.global (a)"),
                Arguments.of("a provider that does not serve the model", """
                          global: {region: r, providers: [{name: p, baseUrl: "https://p/v1", models: {x: y}}]}
                          schedulers: [{modelName: m, targets: [p]}]
                        """, "spec.schedulers[0].targets[0] 'p' is a provider whose models do not map 'm'"),
                Arguments.of("a pool no target serves", """
                          global: {region: r, providers: [{name: p, baseUrl: "https://p/v1", models: {x: y}}]}
                          schedulers: [{modelName: m}]
                        """, "spec.schedulers[0] is served by no cluster or provider of spec.global"),
                Arguments.of("pods and targets in one pool", """
                          global: {region: r, clusters: [{name: a, url: "http://a:1", region: r}]}
                          schedulers: [{modelName: m, endpoints: ["p:8000"], targets: [a]}]
                        """, "spec.schedulers[0] sets both targets and endpoints/modelSelector"),
                Arguments.of("a residency pin to a region no target is in", """
                          global: {region: r, clusters: [{name: a, url: "http://a:1", region: r}]}
                          schedulers: [{modelName: m}]
                          tenants: [{name: t, regions: [mars]}]
                        """, "spec.tenants[0].regions[0] 'mars' is the region of no target of spec.global (r)"),
                Arguments.of("a client certificate without its key", """
                          global: {region: r, clusters: [{name: a, url: "https://a:1", region: r}],
                                   tls: {certFile: /c.pem}}
                          schedulers: [{modelName: m}]
                        """, "spec.global.tls needs both certFile and keyFile"),
                Arguments.of("an unknown field", """
                          global: {region: r, clusters: [{name: a, url: "http://a:1", region: r, weight: 3}]}
                          schedulers: [{modelName: m}]
                        """, "spec.global.clusters[0].weight is not a known field"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refused")
    void aBadGlobalConfigIsRefusedNamingItsPath(String what, String spec, String message) {
        assertThatThrownBy(() -> parse(spec)).isInstanceOf(InvalidConfigException.class).hasMessageContaining(message);
    }
}
