package io.inferencegateway.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.LatencyTargets;

class ConfigLoaderTest {

    private static final String HEAD = """
            apiVersion: inferencegateway.io/v1alpha1
            kind: InferenceGatewayConfig
            metadata: {name: t}
            """;

    @Test
    void fullSchedulerIsReadWithEveryField() throws Exception {
        GatewayConfig c = ConfigLoader.parse(HEAD + """
                spec:
                  bbr: {maxRequestBodyBytes: 4096}
                  schedulers:
                    - name: llama
                      modelName: meta-llama/Llama-3.1-8B-Instruct
                      loraAdapters: [sql-lora, ko-lora]
                      endpoints: ["10.0.0.1:8000", "[::1]:8001"]
                      modelSelector: {matchLabels: {app: vllm, model: llama}}
                      namespace: inference
                      targetPort: 8080
                      engineType: sglang
                      policy: least-request
                      profile: throughput
                      weights: {queue: 5, runningRequests: 1}
                      routeTimeout: 1m30s
                      metricsInterval: 100ms
                """);
        assertThat(c.maxRequestBodyBytes()).isEqualTo(4096);
        PoolConfig p = c.pools().get(0);
        assertThat(p.name()).isEqualTo("llama");
        assertThat(p.loraAdapters()).containsExactly("sql-lora", "ko-lora");
        assertThat(p.endpoints()).containsExactly(new Endpoint("10.0.0.1", 8000), new Endpoint("::1", 8001));
        assertThat(p.modelSelector()).containsEntry("app", "vllm").containsEntry("model", "llama");
        assertThat(p.namespace()).isEqualTo("inference");
        assertThat(p.targetPort()).isEqualTo(8080);
        assertThat(p.engine()).isEqualTo("sglang");
        assertThat(p.policy()).isEqualTo(Policy.LEAST_REQUEST);
        // profile preset (throughput: 1/3/4/3/0/2), then the two explicit weights over it
        assertThat(scorerWeights(p)).containsExactly(entry("queue-scorer", 5.0), entry("kv-cache-scorer", 3.0),
                entry("lora-affinity-scorer", 3.0), entry("running-requests-scorer", 1.0),
                entry("prefix-cache-scorer", 4.0), entry("latency-scorer", 2.0));
        assertThat(p.endpointPicker())
                .isEqualTo(Weights.forProfile("throughput").with("queue", 5).with("runningRequests", 1).endpointPicker());
        assertThat(p.routeTimeout()).isEqualTo(Duration.ofSeconds(90));
        assertThat(p.metricsInterval()).isEqualTo(Duration.ofMillis(100));
        assertThat(p.metricsStalenessThreshold()).as("200 ms, or four scrapes if longer").isEqualTo(Duration.ofMillis(400));
    }

    @Test
    void defaultsApplyWhenFieldsAreLeftOut() throws Exception {
        GatewayConfig c = ConfigLoader.parse(HEAD + """
                spec:
                  schedulers:
                    - modelName: m
                      endpoints: ["127.0.0.1:9000"]
                """);
        PoolConfig p = c.pools().get(0);
        assertThat(c.maxRequestBodyBytes()).isEqualTo(GatewayConfig.DEFAULT_MAX_REQUEST_BODY_BYTES);
        assertThat(p.name()).as("name defaults to the model name").isEqualTo("m");
        assertThat(p.engine()).isEqualTo("vllm");
        assertThat(p.policy()).isEqualTo(Policy.GPU_AWARE);
        assertThat(p.endpointPicker()).isEqualTo(Weights.DEFAULT.endpointPicker());
        assertThat(p.endpointPicker().profile().plugins()).extracting(ProfileConfig.ProfileEntry::pluginRef).containsExactly(
                "saturation-filter", "lora-affinity-filter", "latency-target-filter", "queue-scorer", "kv-cache-scorer",
                "lora-affinity-scorer", "prefix-cache-scorer", "latency-scorer", "max-score-picker");
        assertThat(scorerWeights(p)).containsExactly(entry("queue-scorer", 2.0), entry("kv-cache-scorer", 2.0),
                entry("lora-affinity-scorer", 2.0), entry("prefix-cache-scorer", 3.0), entry("latency-scorer", 2.0));
        assertThat(p.endpointPicker().plugins()).allSatisfy(plugin -> assertThat(plugin.parameters()).isEmpty());
        assertThat(p.targetPort()).isEqualTo(8000);
        assertThat(p.routeTimeout()).isEqualTo(Duration.ofSeconds(300));
        assertThat(p.metricsInterval()).isEqualTo(Duration.ofMillis(50));
        assertThat(p.metricsStalenessThreshold()).isEqualTo(Duration.ofMillis(200));
        assertThat(p.failover()).isEqualTo(FailoverConfig.DEFAULT);
        assertThat(p.outlierDetection()).isEqualTo(OutlierConfig.DEFAULT);
        assertThat(p.flowControl()).isEqualTo(FlowControlConfig.DEFAULT);
    }

    @Test
    void flowControlReadsPrioritiesByNameOrNumberForTheModelAndItsAdapters() throws Exception {
        PoolConfig p = ConfigLoader.parse(HEAD + """
                spec:
                  schedulers:
                    - modelName: m
                      loraAdapters: [sql-lora, chat-lora]
                      endpoints: ["127.0.0.1:9000"]
                      flowControl:
                        maxQueued: 10
                        queueTimeout: 5s
                        defaultPriority: sheddable
                        priorities: {sql-lora: critical, m: 7}
                        priorityHeader: false
                """).pools().get(0);
        FlowControlConfig f = p.flowControl();
        assertThat(f).isEqualTo(new FlowControlConfig(true, 10, Duration.ofSeconds(5), Duration.ofSeconds(1), -1,
                Map.of("sql-lora", 1, "m", 7), false));
        assertThat(java.util.List.of(f.priorityOf("sql-lora"), f.priorityOf("m"), f.priorityOf("chat-lora")))
                .containsExactly(1, 7, -1);
    }

    @Test
    void latencyTargetsAreReadForThePoolAndItsModelsAndAdapters() throws Exception {
        PoolConfig p = ConfigLoader.parse(HEAD + """
                spec:
                  schedulers:
                    - modelName: m
                      loraAdapters: [sql-lora]
                      endpoints: ["127.0.0.1:9000"]
                      slo:
                        ttft: 2s
                        models:
                          sql-lora: {ttft: 500ms, tpot: 40ms}
                """).pools().get(0);
        assertThat(p.slo().targetsFor("m")).isEqualTo(new LatencyTargets(2000, 0));
        assertThat(p.slo().targetsFor("sql-lora")).isEqualTo(new LatencyTargets(500, 40));
        assertThat(ConfigLoader.parse(HEAD + """
                spec:
                  schedulers: [{modelName: m, endpoints: ["h:1"]}]
                """).pools().get(0).slo()).isEqualTo(SloConfig.NONE);
    }

    @Test
    void failoverAndOutlierDetectionAreReadOverTheirDefaults() throws Exception {
        PoolConfig p = ConfigLoader.parse(HEAD + """
                spec:
                  schedulers:
                    - modelName: m
                      endpoints: ["127.0.0.1:9000"]
                      failover: {maxAttempts: 2, retryBudgetPercent: 10}
                      outlierDetection: {consecutiveFailures: 3, baseEjectionTime: 10s, maxEjectionPercent: 30}
                """).pools().get(0);
        assertThat(p.failover()).isEqualTo(new FailoverConfig(2, 10, FailoverConfig.DEFAULT.minRetries()));
        assertThat(p.outlierDetection()).isEqualTo(new OutlierConfig(3, 50, 20, Duration.ofSeconds(10),
                Duration.ofSeconds(10), Duration.ofSeconds(300), 30));
    }

    @Test
    void thePickerOfTheWeightsFormIsTheHighestTotalUnlessItNamesAnother() throws Exception {
        PoolConfig p = ConfigLoader.parse(HEAD + """
                spec:
                  schedulers:
                    - {modelName: m, endpoints: ["h:1"], weights: {prefix: 0, loraAffinity: 0, latency: 0},
                       picker: predicted-time}
                """).pools().get(0);
        assertThat(p.endpointPicker().plugins()).extracting(PluginConfig::type)
                .containsExactly("saturation-filter", "queue-scorer", "kv-cache-scorer", "predicted-time-picker");
        assertThat(p.endpointPicker()).isEqualTo(Weights.DEFAULT.with("prefix", 0).with("loraAffinity", 0)
                .with("latency", 0).endpointPicker("predicted-time"));
    }

    @Test
    void aWeightOfZeroLeavesTheScorerOutAndLoraAffinityOrLatencyZeroAlsoItsFilter() throws Exception {
        PoolConfig p = ConfigLoader.parse(HEAD + """
                spec:
                  schedulers:
                    - {modelName: m, endpoints: ["h:1"], weights: {prefix: 0, loraAffinity: 0, latency: 0}}
                """).pools().get(0);
        assertThat(p.endpointPicker().plugins()).extracting(PluginConfig::type)
                .containsExactly("saturation-filter", "queue-scorer", "kv-cache-scorer", "max-score-picker");
    }

    @Test
    void theStalenessThresholdCanBeSetAndDefaultsToFourScrapesForSlowPools() throws Exception {
        GatewayConfig c = ConfigLoader.parse(HEAD + """
                spec:
                  schedulers:
                    - {modelName: a, endpoints: ["h:1"], metricsInterval: 1s}
                    - {modelName: b, endpoints: ["h:1"], metricsInterval: 1s, metricsStalenessThreshold: 1500ms}
                """);
        assertThat(c.pools().get(0).metricsStalenessThreshold()).isEqualTo(Duration.ofSeconds(4));
        assertThat(c.pools().get(1).metricsStalenessThreshold()).isEqualTo(Duration.ofMillis(1500));
    }

    @Test
    void replicasDefaultToOneGatewayAndSeveralDefaultToRendezvousWithSpreadScrapes() throws Exception {
        GatewayConfig c = ConfigLoader.parse(HEAD + """
                spec:
                  schedulers:
                    - {modelName: a, endpoints: ["h:1"]}
                    - {modelName: b, endpoints: ["h:1"], replicas: {count: 3}}
                    - {modelName: c, endpoints: ["h:1"], replicas: {count: 3, placement: independent, loadBound: 1.5,
                       keyBlocks: 8, spreadScrapes: false}}
                    - {modelName: d, endpoints: ["h:1"], replicas: {count: 2, placement: shared,
                       redisUrl: "redis://redis:6379"}}
                """);
        assertThat(c.pools().get(0).replicas()).isEqualTo(ReplicaConfig.SINGLE);
        PoolConfig b = c.pools().get(1);
        assertThat(b.replicas()).isEqualTo(new ReplicaConfig(3, ReplicaConfig.Coordination.RENDEZVOUS, 1.25, 4, true, null));
        assertThat(b.scrapeInterval()).isEqualTo(Duration.ofMillis(150));
        assertThat(b.metricsStalenessThreshold()).as("four spread scrapes").isEqualTo(Duration.ofMillis(600));
        PoolConfig cc = c.pools().get(2);
        assertThat(cc.replicas()).isEqualTo(new ReplicaConfig(3, ReplicaConfig.Coordination.INDEPENDENT, 1.5, 8, false, null));
        assertThat(cc.scrapeInterval()).isEqualTo(Duration.ofMillis(50));
        assertThat(c.pools().get(3).replicas()).isEqualTo(new ReplicaConfig(2, ReplicaConfig.Coordination.SHARED, 1.25, 4,
                true, java.net.URI.create("redis://redis:6379")));
    }

    /** The profile's scorers and their weights, in profile order. */
    static Map<String, Double> scorerWeights(PoolConfig p) {
        Map<String, Double> weights = new LinkedHashMap<>();
        for (ProfileConfig.ProfileEntry e : p.endpointPicker().profile().plugins()) {
            if (p.endpointPicker().plugin(e.pluginRef()).type().endsWith("-scorer")) {
                weights.put(e.pluginRef(), e.weight());
            }
        }
        return weights;
    }

    static Stream<Arguments> invalidConfigs() {
        return Stream.of(
                Arguments.of("wrong kind", "apiVersion: x\nkind: Pod\nspec: {}\n", "kind must be InferenceGatewayConfig"),
                Arguments.of("no spec", HEAD, "spec is required"),
                Arguments.of("no schedulers", HEAD + "spec: {schedulers: []}\n", "spec.schedulers must list at least one"),
                Arguments.of("missing modelName", HEAD + """
                        spec:
                          schedulers:
                            - {modelName: a, endpoints: ["h:1"]}
                            - {name: b, endpoints: ["h:2"]}
                        """, "spec.schedulers[1].modelName is required"),
                Arguments.of("unknown weight", HEAD + """
                        spec:
                          schedulers:
                            - {modelName: a, endpoints: ["h:1"], weights: {deadline: 3}}
                        """, "spec.schedulers[0].weights.deadline is not a known weight (queue, kvCache, prefix, "
                        + "loraAffinity, runningRequests, latency)"),
                Arguments.of("negative weight", HEAD + """
                        spec:
                          schedulers:
                            - {modelName: a, endpoints: ["h:1"], weights: {queue: -1}}
                        """, "spec.schedulers[0].weights.queue must be a non-negative integer"),
                Arguments.of("weight not a number", HEAD + """
                        spec:
                          schedulers:
                            - {modelName: a, endpoints: ["h:1"], weights: {queue: lots}}
                        """, "spec.schedulers[0].weights.queue has the wrong type"),
                Arguments.of("duplicate modelName", HEAD + """
                        spec:
                          schedulers:
                            - {name: a, modelName: m, endpoints: ["h:1"]}
                            - {name: b, modelName: m, endpoints: ["h:2"]}
                        """, "spec.schedulers[1].modelName 'm' duplicates spec.schedulers[0].modelName"),
                Arguments.of("adapter named like a model", HEAD + """
                        spec:
                          schedulers:
                            - {name: a, modelName: m, endpoints: ["h:1"]}
                            - {name: b, modelName: n, loraAdapters: [m], endpoints: ["h:2"]}
                        """, "spec.schedulers[1].loraAdapters[0] 'm' duplicates spec.schedulers[0].modelName"),
                Arguments.of("bad endpoint", HEAD + """
                        spec:
                          schedulers:
                            - {modelName: a, endpoints: ["h:1", "just-a-host"]}
                        """, "spec.schedulers[0].endpoints[1] endpoint must be host:port"),
                Arguments.of("endpoint port out of range", HEAD + """
                        spec:
                          schedulers:
                            - {modelName: a, endpoints: ["h:70000"]}
                        """, "spec.schedulers[0].endpoints[0] port must be 1..65535"),
                Arguments.of("neither endpoints nor selector", HEAD + """
                        spec:
                          schedulers:
                            - {modelName: a}
                        """, "spec.schedulers[0] needs endpoints (host:port list) or a modelSelector"),
                Arguments.of("unknown field", HEAD + """
                        spec:
                          schedulers:
                            - {modelName: a, endpoints: ["h:1"], replicaCount: 3}
                        """, "spec.schedulers[0].replicaCount is not a known field"),
                Arguments.of("no replicas", HEAD + """
                        spec:
                          schedulers:
                            - {modelName: a, endpoints: ["h:1"], replicas: {count: 0}}
                        """, "spec.schedulers[0].replicas.count must be 1..1024, got 0"),
                Arguments.of("unknown placement", HEAD + """
                        spec:
                          schedulers:
                            - {modelName: a, endpoints: ["h:1"], replicas: {count: 2, placement: redis}}
                        """, "spec.schedulers[0].replicas.placement must be one of rendezvous, shared, independent; got 'redis'"),
                Arguments.of("shared placement without a Redis", HEAD + """
                        spec:
                          schedulers:
                            - {modelName: a, endpoints: ["h:1"], replicas: {count: 2, placement: shared}}
                        """, "spec.schedulers[0].replicas.redisUrl is required with placement: shared (e.g. redis://redis:6379)"),
                Arguments.of("shared placement with a URL that is not Redis's", HEAD + """
                        spec:
                          schedulers:
                            - {modelName: a, endpoints: ["h:1"], replicas: {count: 2, placement: shared, redisUrl: "http://r:1"}}
                        """, "spec.schedulers[0].replicas.redisUrl must be a redis:// or rediss:// URL, got 'http://r:1'"),
                Arguments.of("a Redis for a placement that does not use one", HEAD + """
                        spec:
                          schedulers:
                            - {modelName: a, endpoints: ["h:1"], replicas: {count: 2, redisUrl: "redis://r:1"}}
                        """, "spec.schedulers[0].replicas.redisUrl is only used with placement: shared"),
                Arguments.of("load bound below 1", HEAD + """
                        spec:
                          schedulers:
                            - {modelName: a, endpoints: ["h:1"], replicas: {count: 2, loadBound: 0.9}}
                        """, "spec.schedulers[0].replicas.loadBound must be between 1 and 100, got 0.9"),
                Arguments.of("staleness shorter than a spread scrape", HEAD + """
                        spec:
                          schedulers:
                            - {modelName: a, endpoints: ["h:1"], metricsInterval: 50ms, metricsStalenessThreshold: 100ms,
                               replicas: {count: 3}}
                        """, "spec.schedulers[0].metricsStalenessThreshold must be at least metricsInterval × "
                        + "replicas.count (150ms), got '100ms'"),
                Arguments.of("unknown policy", HEAD + """
                        spec:
                          schedulers:
                            - {modelName: a, endpoints: ["h:1"], policy: fastest}
                        """, "spec.schedulers[0].policy must be one of"),
                Arguments.of("unknown engine", HEAD + """
                        spec:
                          schedulers:
                            - {modelName: a, endpoints: ["h:1"], engineType: ollama}
                        """, "spec.schedulers[0].engineType must be one of vllm, sglang, tgi, trtllm, llamacpp, inference-gateway; "
                        + "got 'ollama'"),
                Arguments.of("unknown profile", HEAD + """
                        spec:
                          schedulers:
                            - {modelName: a, endpoints: ["h:1"], profile: turbo}
                        """, "spec.schedulers[0].profile must be one of latency, throughput"),
                Arguments.of("unknown picker", HEAD + """
                        spec:
                          schedulers:
                            - {modelName: a, endpoints: ["h:1"], picker: fastest}
                        """, "spec.schedulers[0].picker must be one of max-score, predicted-time, weighted-random; "
                        + "got 'fastest'"),
                Arguments.of("picker beside the plugin form", HEAD + """
                        spec:
                          schedulers:
                            - {modelName: a, endpoints: ["h:1"], picker: max-score, plugins: [{type: queue-scorer}]}
                        """, "spec.schedulers[0].picker belongs to the weights form; the plugin form names its picker "
                        + "among its plugins (e.g. predicted-time-picker)"),
                Arguments.of("bad route timeout", HEAD + """
                        spec:
                          schedulers:
                            - {modelName: a, endpoints: ["h:1"], routeTimeout: soon}
                        """, "spec.schedulers[0].routeTimeout"),
                Arguments.of("zero route timeout", HEAD + """
                        spec:
                          schedulers:
                            - {modelName: a, endpoints: ["h:1"], routeTimeout: 0s}
                        """, "spec.schedulers[0].routeTimeout must be positive"),
                Arguments.of("staleness shorter than the scrape interval", HEAD + """
                        spec:
                          schedulers:
                            - {modelName: a, endpoints: ["h:1"], metricsInterval: 100ms, metricsStalenessThreshold: 50ms}
                        """, "spec.schedulers[0].metricsStalenessThreshold must be at least metricsInterval (100ms), "
                        + "got '50ms'"),
                Arguments.of("zero staleness", HEAD + """
                        spec:
                          schedulers:
                            - {modelName: a, endpoints: ["h:1"], metricsStalenessThreshold: 0ms}
                        """, "spec.schedulers[0].metricsStalenessThreshold must be positive"),
                Arguments.of("empty selector", HEAD + """
                        spec:
                          schedulers:
                            - {modelName: a, modelSelector: {}}
                        """, "spec.schedulers[0].modelSelector.matchLabels must name at least one label"),
                Arguments.of("body limit zero", HEAD + """
                        spec:
                          bbr: {maxRequestBodyBytes: 0}
                          schedulers:
                            - {modelName: a, endpoints: ["h:1"]}
                        """, "spec.bbr.maxRequestBodyBytes must be between 1 and"),
                Arguments.of("no attempt at all", HEAD + """
                        spec:
                          schedulers:
                            - {modelName: a, endpoints: ["h:1"], failover: {maxAttempts: 0}}
                        """, "spec.schedulers[0].failover.maxAttempts must be 1..10, got 0"),
                Arguments.of("a budget over 100%", HEAD + """
                        spec:
                          schedulers:
                            - {modelName: a, endpoints: ["h:1"], failover: {retryBudgetPercent: 150}}
                        """, "spec.schedulers[0].failover.retryBudgetPercent must be a percentage 0..100, got 150"),
                Arguments.of("an ejection cap over 100%", HEAD + """
                        spec:
                          schedulers:
                            - {modelName: a, endpoints: ["h:1"], outlierDetection: {maxEjectionPercent: 101}}
                        """, "spec.schedulers[0].outlierDetection.maxEjectionPercent must be 0..100, got 101"),
                Arguments.of("a max ejection shorter than the base", HEAD + """
                        spec:
                          schedulers:
                            - {modelName: a, endpoints: ["h:1"], outlierDetection: {baseEjectionTime: 60s, maxEjectionTime: 30s}}
                        """, "spec.schedulers[0].outlierDetection.maxEjectionTime must be at least baseEjectionTime (60s)"),
                Arguments.of("an unknown outlier field", HEAD + """
                        spec:
                          schedulers:
                            - {modelName: a, endpoints: ["h:1"], outlierDetection: {ejectAfter: 3}}
                        """, "spec.schedulers[0].outlierDetection.ejectAfter"),
                Arguments.of("a priority that is no priority", HEAD + """
                        spec:
                          schedulers:
                            - {modelName: a, endpoints: ["h:1"], flowControl: {defaultPriority: urgent}}
                        """, "spec.schedulers[0].flowControl.defaultPriority must be critical, standard, sheddable or an integer"),
                Arguments.of("a priority for a model the pool does not serve", HEAD + """
                        spec:
                          schedulers:
                            - {modelName: a, endpoints: ["h:1"], flowControl: {priorities: {b: critical}}}
                        """, "spec.schedulers[0].flowControl.priorities names 'b', which is neither"),
                Arguments.of("latency targets for a model the pool does not serve", HEAD + """
                        spec:
                          schedulers:
                            - {modelName: a, endpoints: ["h:1"], slo: {models: {b: {ttft: 1s}}}}
                        """, "spec.schedulers[0].slo.models names 'b', which is neither"),
                Arguments.of("a zero latency target", HEAD + """
                        spec:
                          schedulers:
                            - {modelName: a, endpoints: ["h:1"], slo: {ttft: 0s}}
                        """, "spec.schedulers[0].slo.ttft must be positive, got '0s'"),
                Arguments.of("a negative queue", HEAD + """
                        spec:
                          schedulers:
                            - {modelName: a, endpoints: ["h:1"], flowControl: {maxQueued: -1}}
                        """, "spec.schedulers[0].flowControl.maxQueued must be 0..1000000, got -1"),
                Arguments.of("cluster name not a label value", HEAD + """
                        spec:
                          schedulers:
                            - {modelName: a, endpoints: ["h:1"]}
                          cluster: {name: "us east"}
                        """, "spec.cluster.name must be 1..63 letters, digits, '.', '_' or '-', got 'us east'"),
                Arguments.of("cluster token file blank", HEAD + """
                        spec:
                          schedulers:
                            - {modelName: a, endpoints: ["h:1"]}
                          cluster: {tokenFile: " "}
                        """, "spec.cluster.tokenFile is required"),
                Arguments.of("not YAML", "kind: InferenceGatewayConfig\nspec: {schedulers: [}\n", "config is not valid YAML"));
    }

    @Test
    void theClusterSectionGivesTheSummarysNameRegionAndTokenFile() throws Exception {
        GatewayConfig c = ConfigLoader.parse(HEAD + """
                spec:
                  schedulers:
                    - {modelName: a, endpoints: ["h:1"]}
                  cluster: {name: us-east, region: us-east-1, tokenFile: /etc/gateway/cluster/token}
                """);

        assertThat(c.cluster()).isEqualTo(new ClusterConfig("us-east", "us-east-1",
                java.nio.file.Path.of("/etc/gateway/cluster/token")));
        assertThat(ConfigLoader.parse(HEAD + """
                spec:
                  schedulers:
                    - {modelName: a, endpoints: ["h:1"]}
                """).cluster()).as("unset: no name, an open summary").isEqualTo(ClusterConfig.NONE);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidConfigs")
    void invalidConfigIsRejectedNamingThePath(String scenario, String yaml, String expected) {
        assertThatThrownBy(() -> ConfigLoader.parse(yaml))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageStartingWith(expected);
    }

    /** Refusals quoted whole: the message a user reads is part of the contract. */
    static Stream<Arguments> refusedConfigs() {
        return Stream.of(
                Arguments.of("a CRD's apiVersion", """
                        apiVersion: apiextensions.k8s.io/v1
                        kind: InferenceGatewayConfig
                        spec:
                          schedulers:
                            - {modelName: a, endpoints: ["h:1"]}
                        """, "apiVersion must be inferencegateway.io/v1alpha1, got 'apiextensions.k8s.io/v1'"),
                Arguments.of("another version of ours", HEAD.replace("v1alpha1", "v1") + """
                        spec:
                          schedulers:
                            - {modelName: a, endpoints: ["h:1"]}
                        """, "apiVersion must be inferencegateway.io/v1alpha1, got 'inferencegateway.io/v1'"),
                Arguments.of("a CRD", """
                        apiVersion: apiextensions.k8s.io/v1
                        kind: CustomResourceDefinition
                        spec: {group: inferencegateway.io}
                        """, "kind must be InferenceGatewayConfig, got CustomResourceDefinition"),
                Arguments.of("no kind", "apiVersion: inferencegateway.io/v1alpha1\nspec: {}\n",
                        "kind must be InferenceGatewayConfig, got null"),
                Arguments.of("a field in the wrong case", HEAD + """
                        spec:
                          schedulers:
                            - {modelname: a, endpoints: ["h:1"]}
                        """, "spec.schedulers[0].modelname is not a known field; did you mean modelName?"),
                Arguments.of("a misspelt field", HEAD + """
                        spec:
                          schedulers:
                            - {modelName: a, endpoints: ["h:1"], routeTimout: 5s}
                        """, "spec.schedulers[0].routeTimout is not a known field; did you mean routeTimeout?"),
                Arguments.of("a misspelt field deeper down", HEAD + """
                        spec:
                          schedulers:
                            - {modelName: a, endpoints: ["h:1"], failover: {maxAttempt: 2}}
                        """, "spec.schedulers[0].failover.maxAttempt is not a known field; did you mean maxAttempts?"),
                Arguments.of("a misspelt top-level field", """
                        apiversion: inferencegateway.io/v1alpha1
                        kind: InferenceGatewayConfig
                        spec: {}
                        """, "apiversion is not a known field; did you mean apiVersion?"),
                Arguments.of("a field like none we know", HEAD + """
                        spec:
                          schedulers:
                            - {modelName: a, endpoints: ["h:1"], gpuCount: 8}
                        """, "spec.schedulers[0].gpuCount is not a known field"),
                Arguments.of("a route timeout of 1000 days", HEAD + """
                        spec:
                          schedulers:
                            - {modelName: a, endpoints: ["h:1"], routeTimeout: 24000h}
                        """, "spec.schedulers[0].routeTimeout must be at most 24h, got '24000h'"),
                Arguments.of("a duration beyond what a long holds", HEAD + """
                        spec:
                          schedulers:
                            - {modelName: a, endpoints: ["h:1"], routeTimeout: 9999999999999h9999999999999h}
                        """, "spec.schedulers[0].routeTimeout must be at most 24h, got '9999999999999h9999999999999h'"),
                Arguments.of("a scrape every millisecond", HEAD + """
                        spec:
                          schedulers:
                            - {modelName: a, endpoints: ["h:1"], metricsInterval: 1ms}
                        """, "spec.schedulers[0].metricsInterval must be 10ms..1h, got '1ms'"),
                Arguments.of("a scrape every day", HEAD + """
                        spec:
                          schedulers:
                            - {modelName: a, endpoints: ["h:1"], metricsInterval: 24h, metricsStalenessThreshold: 24h}
                        """, "spec.schedulers[0].metricsInterval must be 10ms..1h, got '24h'"),
                Arguments.of("a queue wait of a week", HEAD + """
                        spec:
                          schedulers:
                            - {modelName: a, endpoints: ["h:1"], flowControl: {queueTimeout: 168h}}
                        """, "spec.schedulers[0].flowControl.queueTimeout must be at most 24h, got '168h'"),
                Arguments.of("an ejection of a month", HEAD + """
                        spec:
                          schedulers:
                            - {modelName: a, endpoints: ["h:1"], outlierDetection: {baseEjectionTime: 720h}}
                        """, "spec.schedulers[0].outlierDetection.baseEjectionTime must be at most 24h, got '720h'"),
                Arguments.of("a weight of a billion", HEAD + """
                        spec:
                          schedulers:
                            - {modelName: a, endpoints: ["h:1"], weights: {queue: 1000000000}}
                        """, "spec.schedulers[0].weights.queue must be at most 1000, got 1000000000"),
                Arguments.of("a scorer weight of a billion", HEAD + """
                        spec:
                          schedulers:
                            - modelName: a
                              endpoints: ["h:1"]
                              plugins: [{type: queue-scorer}]
                              schedulingProfiles: [{name: p, plugins: [{pluginRef: queue-scorer, weight: 1e9}]}]
                        """, "spec.schedulers[0].schedulingProfiles[0].plugins[0].weight must be at most 1000, got 1.0E9"),
                Arguments.of("a rate-limit window of a week", HEAD + """
                        spec:
                          schedulers:
                            - {modelName: a, endpoints: ["h:1"]}
                          rateLimits: {window: 168h}
                        """, "spec.rateLimits.window must be at most 24h, got '168h'"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusedConfigs")
    void refusedConfigNamesThePathAndWhatWouldBeRight(String scenario, String yaml, String expected) {
        assertThatThrownBy(() -> ConfigLoader.parse(yaml))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessage(expected);
    }

    @Test
    void theBoundsThemselvesAreAccepted() throws Exception {
        PoolConfig p = ConfigLoader.parse(HEAD + """
                spec:
                  schedulers:
                    - {modelName: a, endpoints: ["h:1"], routeTimeout: 24h, metricsInterval: 10ms,
                       weights: {queue: 1000}, outlierDetection: {baseEjectionTime: 24h}}
                    - {modelName: b, endpoints: ["h:1"], metricsInterval: 1h, metricsStalenessThreshold: 24h}
                """).pools().get(0);
        assertThat(p.routeTimeout()).isEqualTo(Duration.ofHours(24));
        assertThat(p.metricsInterval()).isEqualTo(Duration.ofMillis(10));
    }

    @Test
    void aConfigWithoutApiVersionIsReadAsTheOneVersionThereIs() throws Exception {
        GatewayConfig c = ConfigLoader.parse("""
                kind: InferenceGatewayConfig
                spec:
                  schedulers:
                    - {modelName: a, endpoints: ["h:1"]}
                """);
        assertThat(c.pools()).hasSize(1);
    }

    @Test
    void didYouMeanSuggestsOnlyCloseNames() {
        java.util.List<Object> known = java.util.List.of("modelName", "name", "routeTimeout");
        assertThat(ConfigChecks.closest("MODELNAME", known)).isEqualTo("modelName");
        assertThat(ConfigChecks.closest("nmae", known)).as("two edits").isEqualTo("name");
        assertThat(ConfigChecks.closest("model", known)).as("four edits").isNull();
        assertThat(ConfigChecks.editDistance("kitten", "sitting")).isEqualTo(3);
        assertThat(ConfigChecks.editDistance("", "abc")).isEqualTo(3);
    }
}
