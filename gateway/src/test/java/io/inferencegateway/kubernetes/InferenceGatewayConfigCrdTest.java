package io.inferencegateway.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import com.fasterxml.jackson.databind.JsonNode;
import io.inferencegateway.config.ConfigLoader;
import io.inferencegateway.config.GatewayConfig;
import io.inferencegateway.config.InferenceGatewayConfig;
import io.inferencegateway.config.InvalidConfigException;
import io.inferencegateway.config.TargetConfig;
import io.inferencegateway.config.Weights;
import io.inferencegateway.metrics.EngineDialects;
import io.inferencegateway.testing.ProjectFiles;

/**
 * The InferenceGatewayConfig CRD ({@code camel-k/inferencegatewayconfig-crd.yaml}) and the config model stay in step:
 * the same fields, and the same verdict on sample configs, except the few cross-field rules only the gateway checks.
 */
class InferenceGatewayConfigCrdTest {

    static final Path CRD = ProjectFiles.of("camel-k/inferencegatewayconfig-crd.yaml");

    enum Verdict { VALID, INVALID, GATEWAY_ONLY }

    @Test
    void everyRecordFieldIsInTheSchemaAndEverySchemaFieldIsARecordField() throws Exception {
        TreeSet<String> model = new TreeSet<>();
        recordPaths(InferenceGatewayConfig.class, "", model);
        TreeSet<String> schema = new TreeSet<>();
        schemaPaths(CrdSchema.fromFile(CRD).schema(), "", schema);

        assertThat(schema).isEqualTo(model);
    }

    private static void recordPaths(Class<?> record, String prefix, TreeSet<String> out) {
        for (RecordComponent c : record.getRecordComponents()) {
            String path = prefix + c.getName();
            out.add(path);
            typePaths(c.getGenericType(), path, out);
        }
    }

    private static void typePaths(Type type, String path, TreeSet<String> out) {
        if (type instanceof Class<?> k && k.isRecord()) {
            recordPaths(k, path + ".", out);
        } else if (type instanceof ParameterizedType p && p.getRawType() == List.class) {
            typePaths(p.getActualTypeArguments()[0], path + "[]", out);
        } else if (type instanceof ParameterizedType p && p.getRawType() == Map.class) {
            Type value = p.getActualTypeArguments()[1];
            if (path.endsWith(".weights")) {
                Weights.NAMES.forEach(name -> out.add(path + "." + name)); // ConfigLoader admits only these keys
            } else if (value != Object.class) {
                out.add(path + ".*");
            } // Map<String, Object>: free-form (metadata)
        }
    }

    private static void schemaPaths(JsonNode schema, String path, TreeSet<String> out) {
        for (Iterator<Map.Entry<String, JsonNode>> it = schema.path("properties").fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> property = it.next();
            String child = path.isEmpty() ? property.getKey() : path + "." + property.getKey();
            out.add(child);
            schemaPaths(property.getValue(), child, out);
        }
        if (schema.has("items")) {
            schemaPaths(schema.get("items"), path + "[]", out);
        }
        if (schema.path("additionalProperties").isObject()) {
            out.add(path + ".*");
        }
    }

    static final String HEAD = "apiVersion: inferencegateway.io/v1alpha1\nkind: InferenceGatewayConfig\n"
            + "metadata: {name: sample}\nspec:\n";

    static Arguments sample(String scenario, Verdict verdict, String spec) {
        return Arguments.of(scenario, verdict, HEAD + spec);
    }

    static String one(String scheduler) {
        return "  schedulers:\n    - " + scheduler + "\n";
    }

    static Stream<Arguments> samples() {
        return Stream.of(
                sample("static endpoints", Verdict.VALID, one("{modelName: m, endpoints: ['127.0.0.1:8000']}")),
                sample("selector only", Verdict.VALID, one("{modelName: m, modelSelector: {matchLabels: {app: vllm}}}")),
                sample("selector and empty endpoints", Verdict.VALID,
                        one("{modelName: m, endpoints: [], modelSelector: {matchLabels: {app: vllm}}}")),
                sample("every field", Verdict.VALID, "  bbr: {maxRequestBodyBytes: 1048576}\n" + one(
                        "{name: llama, modelName: meta-llama/Llama-3.1-8B, loraAdapters: [sql, chat], "
                                + "endpoints: ['[::1]:8000', 'vllm-0.vllm:8000'], namespace: models, "
                                + "modelSelector: {matchLabels: {app: vllm, model: llama}}, targetPort: 8000, "
                                + "engineType: sglang, policy: least-request, profile: throughput, "
                                + "weights: {queue: 1, kvCache: 0, prefix: 4, loraAffinity: 2, runningRequests: 1}, "
                                + "routeTimeout: 1h30m, metricsInterval: 250ms}")),
                sample("plugin form with every field", Verdict.VALID, one(
                        "{modelName: m, endpoints: ['h:1'], metricsInterval: 100ms, metricsStalenessThreshold: 1s, "
                                + "plugins: [{type: saturation-filter, parameters: {queueDepthThreshold: 8}}, "
                                + "{type: queue-scorer}, {type: prefix-cache-scorer, name: prefix, "
                                + "parameters: {blockSize: 128, maxBlocks: 64}}, {type: weighted-random-picker}], "
                                + "schedulingProfiles: [{name: default, plugins: [{pluginRef: saturation-filter}, "
                                + "{pluginRef: queue-scorer, weight: 2}, {pluginRef: prefix, weight: 2.5}, "
                                + "{pluginRef: weighted-random-picker}]}]}")),
                sample("plugin form without a profile", Verdict.VALID,
                        one("{modelName: m, endpoints: ['h:1'], plugins: [{type: queue-scorer}, {type: kv-cache-scorer}]}")),
                sample("two models with adapters", Verdict.VALID, "  schedulers:\n"
                        + "    - {modelName: a, loraAdapters: [a-1], endpoints: ['h:1']}\n"
                        + "    - {modelName: b, loraAdapters: [b-1], endpoints: ['h:2']}\n"),
                sample("fractional duration", Verdict.VALID, one("{modelName: m, endpoints: ['h:1'], routeTimeout: 1.5s}")),
                sample("shadow traffic", Verdict.VALID, "  schedulers:\n"
                        + "    - {modelName: a, endpoints: ['h:1'], shadow: {model: b-2, percent: 5, maxInFlight: 8}}\n"
                        + "    - {modelName: b, loraAdapters: [b-2], endpoints: ['h:2']}\n"),
                sample("shadow without percent", Verdict.INVALID, "  schedulers:\n"
                        + "    - {modelName: a, endpoints: ['h:1'], shadow: {model: b}}\n"
                        + "    - {modelName: b, endpoints: ['h:2']}\n"),
                sample("shadow of 0 percent", Verdict.INVALID, "  schedulers:\n"
                        + "    - {modelName: a, endpoints: ['h:1'], shadow: {model: b, percent: 0}}\n"
                        + "    - {modelName: b, endpoints: ['h:2']}\n"),
                sample("shadow budget 0", Verdict.INVALID, "  schedulers:\n"
                        + "    - {modelName: a, endpoints: ['h:1'], shadow: {model: b, percent: 1, maxInFlight: 0}}\n"
                        + "    - {modelName: b, endpoints: ['h:2']}\n"),
                sample("no spec", Verdict.INVALID, ""),
                sample("no schedulers", Verdict.INVALID, "  schedulers: []\n"),
                sample("no modelName", Verdict.INVALID, one("{endpoints: ['h:1']}")),
                sample("blank modelName", Verdict.INVALID, one("{modelName: ' ', endpoints: ['h:1']}")),
                sample("blank name", Verdict.INVALID, one("{name: '', modelName: m, endpoints: ['h:1']}")),
                sample("blank adapter", Verdict.INVALID, one("{modelName: m, loraAdapters: [''], endpoints: ['h:1']}")),
                sample("adapter twice in one scheduler", Verdict.INVALID,
                        one("{modelName: m, loraAdapters: [x, x], endpoints: ['h:1']}")),
                // a pool without pods is valid to the schema: spec.global's targets may serve it
                sample("neither endpoints nor selector", Verdict.GATEWAY_ONLY, one("{modelName: m}")),
                sample("empty endpoints, no selector", Verdict.GATEWAY_ONLY, one("{modelName: m, endpoints: []}")),
                sample("a global tier", Verdict.VALID, one("{modelName: m}")
                        + "  global: {region: r1, clusterTokenFile: /t, summaryInterval: 500ms, "
                        + "tls: {caFile: /ca.pem, certFile: /c.pem, keyFile: /k.pem}, "
                        + "clusters: [{name: a, url: 'https://a:8443', region: r1, price: {input: 0.1, output: 0.3}}], "
                        + "providers: [{name: p, baseUrl: 'https://p/v1', apiKeyFile: /p, region: r2, models: {m: pm}, "
                        + "price: {input: 1, output: 2}}]}\n"
                        + "  tenants: [{name: t, regions: [r1], providers: false}]\n"),
                sample("a global pool naming its targets", Verdict.VALID, one("{modelName: m, targets: [a]}")
                        + "  global: {region: r1, clusters: [{name: a, url: 'http://a:1', region: r1}]}\n"),
                sample("a cluster without a URL", Verdict.INVALID, one("{modelName: m}")
                        + "  global: {region: r1, clusters: [{name: a, region: r1}]}\n"),
                sample("a provider without models", Verdict.INVALID, one("{modelName: m}")
                        + "  global: {region: r1, providers: [{name: p, baseUrl: 'https://p/v1'}]}\n"),
                sample("a target name in capitals", Verdict.INVALID, one("{modelName: m}")
                        + "  global: {region: r1, clusters: [{name: A, url: 'http://a:1', region: r1}]}\n"),
                sample("targets naming no target", Verdict.GATEWAY_ONLY, one("{modelName: m, targets: [b]}")
                        + "  global: {region: r1, clusters: [{name: a, url: 'http://a:1', region: r1}]}\n"),
                sample("selector without matchLabels", Verdict.INVALID, one("{modelName: m, modelSelector: {}}")),
                sample("selector with no label", Verdict.INVALID, one("{modelName: m, modelSelector: {matchLabels: {}}}")),
                sample("matchExpressions are not supported", Verdict.INVALID, one(
                        "{modelName: m, modelSelector: {matchLabels: {a: b}, matchExpressions: []}}")),
                sample("endpoint without port", Verdict.INVALID, one("{modelName: m, endpoints: ['localhost']}")),
                sample("endpoint port too big", Verdict.INVALID, one("{modelName: m, endpoints: ['h:65536']}")),
                sample("unbracketed IPv6 endpoint", Verdict.INVALID, one("{modelName: m, endpoints: ['::1:8000']}")),
                sample("targetPort 0", Verdict.INVALID, one("{modelName: m, endpoints: ['h:1'], targetPort: 0}")),
                sample("targetPort 70000", Verdict.INVALID, one("{modelName: m, endpoints: ['h:1'], targetPort: 70000}")),
                sample("unknown engine", Verdict.INVALID, one("{modelName: m, endpoints: ['h:1'], engineType: ollama}")),
                sample("unknown policy", Verdict.INVALID, one("{modelName: m, endpoints: ['h:1'], policy: fastest}")),
                sample("unknown profile", Verdict.INVALID, one("{modelName: m, endpoints: ['h:1'], profile: cheap}")),
                sample("unknown weight", Verdict.INVALID, one("{modelName: m, endpoints: ['h:1'], weights: {speed: 1}}")),
                sample("negative weight", Verdict.INVALID, one("{modelName: m, endpoints: ['h:1'], weights: {queue: -1}}")),
                sample("plugin without a type", Verdict.INVALID, one("{modelName: m, endpoints: ['h:1'], plugins: [{name: q}]}")),
                sample("plugin type not kebab-case", Verdict.INVALID,
                        one("{modelName: m, endpoints: ['h:1'], plugins: [{type: QueueScorer}]}")),
                sample("no plugins", Verdict.INVALID, one("{modelName: m, endpoints: ['h:1'], plugins: []}")),
                sample("unknown plugin field", Verdict.INVALID,
                        one("{modelName: m, endpoints: ['h:1'], plugins: [{type: queue-scorer, weight: 1}]}")),
                sample("weights and plugins", Verdict.INVALID, one(
                        "{modelName: m, endpoints: ['h:1'], weights: {queue: 1}, plugins: [{type: queue-scorer}]}")),
                sample("profile preset and schedulingProfiles", Verdict.INVALID, one("{modelName: m, endpoints: ['h:1'], "
                        + "profile: latency, plugins: [{type: queue-scorer}], "
                        + "schedulingProfiles: [{name: p, plugins: [{pluginRef: queue-scorer}]}]}")),
                sample("two profiles", Verdict.INVALID, one("{modelName: m, endpoints: ['h:1'], "
                        + "plugins: [{type: queue-scorer}], schedulingProfiles: [{name: a, plugins: [{pluginRef: "
                        + "queue-scorer}]}, {name: b, plugins: [{pluginRef: queue-scorer}]}]}")),
                sample("profile without a name", Verdict.INVALID, one("{modelName: m, endpoints: ['h:1'], "
                        + "plugins: [{type: queue-scorer}], schedulingProfiles: [{plugins: [{pluginRef: queue-scorer}]}]}")),
                sample("profile entry without pluginRef", Verdict.INVALID, one("{modelName: m, endpoints: ['h:1'], "
                        + "plugins: [{type: queue-scorer}], schedulingProfiles: [{name: p, plugins: [{weight: 1}]}]}")),
                sample("negative scorer weight", Verdict.INVALID, one("{modelName: m, endpoints: ['h:1'], "
                        + "plugins: [{type: queue-scorer}], "
                        + "schedulingProfiles: [{name: p, plugins: [{pluginRef: queue-scorer, weight: -1}]}]}")),
                sample("duration without unit", Verdict.INVALID, one("{modelName: m, endpoints: ['h:1'], routeTimeout: '10'}")),
                sample("duration in words", Verdict.INVALID,
                        one("{modelName: m, endpoints: ['h:1'], metricsInterval: 5 minutes}")),
                sample("unknown scheduler field", Verdict.INVALID, one("{modelName: m, endpoints: ['h:1'], replicas: 2}")),
                sample("unknown spec field", Verdict.INVALID, "  telemetry: {}\n" + one("{modelName: m, endpoints: ['h:1']}")),
                sample("body limit 0", Verdict.INVALID, "  bbr: {maxRequestBodyBytes: 0}\n"
                        + one("{modelName: m, endpoints: ['h:1']}")),
                sample("body limit above 2 GiB", Verdict.INVALID, "  bbr: {maxRequestBodyBytes: 2147483648}\n"
                        + one("{modelName: m, endpoints: ['h:1']}")),
                sample("weight above 1000", Verdict.INVALID, one("{modelName: m, endpoints: ['h:1'], "
                        + "weights: {queue: 1000000000}}")),
                sample("scorer weight above 1000", Verdict.INVALID, one("{modelName: m, endpoints: ['h:1'], "
                        + "plugins: [{type: queue-scorer}], "
                        + "schedulingProfiles: [{name: p, plugins: [{pluginRef: queue-scorer, weight: 1e9}]}]}")),
                sample("modelName twice", Verdict.INVALID, "  schedulers:\n"
                        + "    - {name: a, modelName: m, endpoints: ['h:1']}\n"
                        + "    - {name: b, modelName: m, endpoints: ['h:2']}\n"),
                // cross-field rules the schema cannot state; the gateway rejects these at load and reload
                sample("pool name twice", Verdict.GATEWAY_ONLY, "  schedulers:\n"
                        + "    - {name: p, modelName: a, endpoints: ['h:1']}\n"
                        + "    - {name: p, modelName: b, endpoints: ['h:2']}\n"),
                sample("adapter named like another model", Verdict.GATEWAY_ONLY, "  schedulers:\n"
                        + "    - {modelName: a, endpoints: ['h:1']}\n"
                        + "    - {modelName: b, loraAdapters: [a], endpoints: ['h:2']}\n"),
                sample("adapter in two schedulers", Verdict.GATEWAY_ONLY, "  schedulers:\n"
                        + "    - {modelName: a, loraAdapters: [x], endpoints: ['h:1']}\n"
                        + "    - {modelName: b, loraAdapters: [x], endpoints: ['h:2']}\n"),
                sample("shadow to a model nobody serves", Verdict.GATEWAY_ONLY,
                        one("{modelName: a, endpoints: ['h:1'], shadow: {model: b, percent: 5}}")),
                sample("zero duration", Verdict.GATEWAY_ONLY, one("{modelName: m, endpoints: ['h:1'], routeTimeout: 0s}")),
                // the API server checks apiVersion against the CRD's group and versions by itself
                sample("another apiVersion", Verdict.GATEWAY_ONLY, HEAD.replace("v1alpha1", "v1")
                        + one("{modelName: m, endpoints: ['h:1']}")),
                // durations are strings to the schema; their bounds are the gateway's
                sample("a timeout of 1000 days", Verdict.GATEWAY_ONLY,
                        one("{modelName: m, endpoints: ['h:1'], routeTimeout: 24000h}")),
                sample("a scrape every millisecond", Verdict.GATEWAY_ONLY,
                        one("{modelName: m, endpoints: ['h:1'], metricsInterval: 1ms}")),
                sample("staleness below the scrape interval", Verdict.GATEWAY_ONLY, one(
                        "{modelName: m, endpoints: ['h:1'], metricsInterval: 1s, metricsStalenessThreshold: 500ms}")),
                // plugins: the schema checks their shape, the gateway's registry everything else
                sample("unregistered plugin type", Verdict.GATEWAY_ONLY,
                        one("{modelName: m, endpoints: ['h:1'], plugins: [{type: fastest-scorer}]}")),
                sample("unknown plugin parameter", Verdict.GATEWAY_ONLY, one(
                        "{modelName: m, endpoints: ['h:1'], plugins: [{type: saturation-filter, parameters: {x: 1}}]}")),
                sample("plugin parameter out of range", Verdict.GATEWAY_ONLY, one("{modelName: m, endpoints: ['h:1'], "
                        + "plugins: [{type: saturation-filter, parameters: {kvCacheThreshold: 1.5}}]}")),
                sample("plugin name twice", Verdict.GATEWAY_ONLY,
                        one("{modelName: m, endpoints: ['h:1'], plugins: [{type: queue-scorer}, {type: queue-scorer}]}")),
                sample("dangling pluginRef", Verdict.GATEWAY_ONLY, one("{modelName: m, endpoints: ['h:1'], "
                        + "plugins: [{type: queue-scorer}], schedulingProfiles: [{name: p, plugins: [{pluginRef: prefix}]}]}")),
                sample("weight on a filter", Verdict.GATEWAY_ONLY, one("{modelName: m, endpoints: ['h:1'], "
                        + "plugins: [{type: saturation-filter}], "
                        + "schedulingProfiles: [{name: p, plugins: [{pluginRef: saturation-filter, weight: 1}]}]}")),
                sample("two pickers", Verdict.GATEWAY_ONLY, one("{modelName: m, endpoints: ['h:1'], "
                        + "plugins: [{type: max-score-picker}, {type: weighted-random-picker}]}")),
                sample("plugin the profile does not use", Verdict.GATEWAY_ONLY, one("{modelName: m, endpoints: ['h:1'], "
                        + "plugins: [{type: queue-scorer}, {type: kv-cache-scorer}], "
                        + "schedulingProfiles: [{name: p, plugins: [{pluginRef: queue-scorer}]}]}")),
                sample("auth, tenants and rate limits", Verdict.VALID, one("{modelName: m, loraAdapters: [a], "
                        + "endpoints: ['h:1']}") + "  auth: {apiKeys: {file: /k}, jwt: {jwksUrl: 'https://i/j', "
                        + "issuer: i, audience: g, tenantClaim: org}, protectUi: true}\n"
                        + "  tenants: [{name: t, models: [m], adapters: [a], priority: critical, "
                        + "limits: {requestsPerMinute: 1, tokensPerMinute: 2}, modelLimits: [{model: a, tokensPerMinute: 3}]}]\n"
                        + "  rateLimits: {defaultMaxTokens: 64, window: 1m, "
                        + "redis: {url: 'redis://r:6379', failMode: closed, timeout: 100ms}}\n"),
                sample("unknown priority class", Verdict.GATEWAY_ONLY, one("{modelName: m, endpoints: ['h:1']}")
                        + "  tenants: [{name: t, priority: urgent}]\n"),
                sample("tenant for a model nobody serves", Verdict.GATEWAY_ONLY, one("{modelName: m, endpoints: ['h:1']}")
                        + "  tenants: [{name: t, models: [gpt]}]\n"),
                sample("a model rewrite with a header rule and a rollout", Verdict.VALID, "  schedulers:\n"
                        + "    - {modelName: v1, loraAdapters: [v1-sql], endpoints: ['h:1']}\n"
                        + "    - {modelName: v2, endpoints: ['h:2']}\n"
                        + "  modelRewrites: [{name: chat, responseModel: requested, stickiness: session, rules: ["
                        + "{matches: [{headers: {x-model-version: v2}}], targets: [{model: v2}]}, "
                        + "{targets: [{model: v1, weight: 95}, {model: v2, weight: 5}]}], "
                        + "rollout: {baseline: v1, candidate: v2, state: paused, steps: [{weight: 5, duration: 10m}, "
                        + "{weight: 100}], analysis: {minSamples: 50, interval: 30s, errorRate: 0.01, refusalRate: 0.02, "
                        + "ttftP90: 1.2, tpotP90: 1.2}, redisUrl: 'redis://r:6379'}}]\n"),
                sample("a model rewrite with an unknown stickiness", Verdict.INVALID, one("{modelName: m, endpoints: ['h:1']}")
                        + "  modelRewrites: [{name: c, stickiness: user, rules: [{targets: [{model: m}]}]}]\n"),
                sample("a model rewrite weight above 100", Verdict.INVALID, one("{modelName: m, endpoints: ['h:1']}")
                        + "  modelRewrites: [{name: c, rules: [{targets: [{model: m, weight: 101}]}]}]\n"),
                sample("a model rewrite named twice", Verdict.INVALID, one("{modelName: m, endpoints: ['h:1']}")
                        + "  modelRewrites: [{name: c, rules: [{targets: [{model: m}]}]}, "
                        + "{name: c, rules: [{targets: [{model: m}]}]}]\n"),
                sample("model rewrite weights that do not sum", Verdict.GATEWAY_ONLY, "  schedulers:\n"
                        + "    - {modelName: a, endpoints: ['h:1']}\n    - {modelName: b, endpoints: ['h:2']}\n"
                        + "  modelRewrites: [{name: c, rules: [{targets: [{model: a, weight: 50}, {model: b, weight: 40}]}]}]\n"),
                sample("a model rewrite to a model nobody serves", Verdict.GATEWAY_ONLY, one("{modelName: m, endpoints: ['h:1']}")
                        + "  modelRewrites: [{name: c, rules: [{targets: [{model: gpt}]}]}]\n"),
                sample("profiles without plugins", Verdict.GATEWAY_ONLY, one("{modelName: m, endpoints: ['h:1'], "
                        + "schedulingProfiles: [{name: p, plugins: [{pluginRef: queue-scorer}]}]}")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("samples")
    void schemaAndGatewayAgreeOnSampleConfigs(String scenario, Verdict verdict, String yaml) throws Exception {
        List<String> schemaProblems = CrdSchema.fromFile(CRD).problems(CrdSchema.YAML.readTree(yaml));

        switch (verdict) {
            case VALID -> {
                assertThat(schemaProblems).isEmpty();
                assertThatCode(() -> ConfigLoader.parse(yaml)).doesNotThrowAnyException();
            }
            case INVALID -> {
                assertThat(schemaProblems).isNotEmpty();
                assertThatThrownBy(() -> ConfigLoader.parse(yaml)).isInstanceOf(InvalidConfigException.class);
            }
            case GATEWAY_ONLY -> {
                assertThat(schemaProblems).isEmpty();
                assertThatThrownBy(() -> ConfigLoader.parse(yaml)).isInstanceOf(InvalidConfigException.class);
            }
        }
    }

    /** A new engine is its dialect, its registration line and this enum value (docs/adding-an-engine.md). */
    @Test
    void theEngineTypeEnumListsExactlyTheRegisteredEngines() throws Exception {
        JsonNode engineType = CrdSchema.fromFile(CRD).schema()
                .at("/properties/spec/properties/schedulers/items/properties/engineType");
        List<String> values = new ArrayList<>();
        engineType.path("enum").forEach(value -> values.add(value.asText()));

        assertThat(values).containsExactlyElementsOf(EngineDialects.names());
    }

    @Test
    void theExampleConfigIsValidForBoth() throws Exception {
        Path example = ProjectFiles.of("camel-k/inference-gateway-config.yaml");
        String yaml = Files.readString(example);

        assertThat(CrdSchema.fromFile(CRD).problems(CrdSchema.YAML.readTree(yaml))).isEmpty();
        assertThat(ConfigLoader.parse(yaml).pools()).hasSize(2)
                .anySatisfy(pool -> assertThat(pool.loraAdapters()).isNotEmpty())
                .allSatisfy(pool -> assertThat(pool.modelSelector()).isNotEmpty());
    }

    @Test
    void theGlobalTierExampleIsValidForBoth() throws Exception {
        String yaml = Files.readString(ProjectFiles.of("camel-k/global-tier/global-tier-config.yaml"));

        assertThat(CrdSchema.fromFile(CRD).problems(CrdSchema.YAML.readTree(yaml))).isEmpty();
        GatewayConfig config = ConfigLoader.parse(yaml);
        assertThat(config.global().enabled()).isTrue();
        assertThat(config.global().targets()).hasSize(3).filteredOn(TargetConfig::provider).singleElement()
                .satisfies(p -> assertThat(p.apiKeyFile()).isNotNull());
        assertThat(config.global().clusterTokenFile()).isNotNull();
        assertThat(config.pools()).singleElement()
                .satisfies(pool -> assertThat(pool.endpoints()).hasSize(3));
    }
}
