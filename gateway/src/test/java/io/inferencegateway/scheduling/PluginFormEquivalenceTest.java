package io.inferencegateway.scheduling;

import static io.inferencegateway.domain.SchedulingPolicy.decideNow;
import static io.inferencegateway.scheduling.Scenarios.MODEL;
import static io.inferencegateway.scheduling.Scenarios.pod;
import static io.inferencegateway.scheduling.Scenarios.prompt;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.inferencegateway.config.ConfigLoader;
import io.inferencegateway.config.InvalidConfigException;
import io.inferencegateway.config.PoolConfig;
import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.InFlightRequests;
import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.metrics.EndpointMetrics;

/**
 * HyperPod's {@code weights}/{@code profile} are a shorthand for a plugin list: a pool configured one way and
 * a pool configured with the plugins, names, order and parameters written out pick the same pod for every
 * request of a seeded workload (scrapes, bursts, LoRA adapters, repeated prompts, stale metrics).
 */
class PluginFormEquivalenceTest {

    private static final int PODS = 6;
    private static final int REQUESTS = 400;
    private static final long MS = 1_000_000L;
    private static final String[] ADAPTERS = {"sql", "chat", "law"};

    private static final String PREFIX_DEFAULTS = "{blockSize: 64, maxBlocks: 256, blocksPerEndpoint: 31250, "
            + "maxIndexEntries: 1048576, maxIndexEndpoints: 4096}";

    static Stream<Arguments> pairs() {
        return Stream.of(
                Arguments.of("default weights", "", """
                        plugins:
                          - {type: max-score-picker, name: pick}
                          - {type: prefix-cache-scorer, name: prefix, parameters: %s}
                          - {type: saturation-filter, parameters: {queueDepthThreshold: 5, kvCacheThreshold: 0.8}}
                          - {type: lora-affinity-filter}
                          - {type: kv-cache-scorer, name: kv}
                          - {type: queue-scorer}
                          - {type: lora-affinity-scorer, name: lora}
                        schedulingProfiles:
                          - name: everything
                            plugins:
                              - {pluginRef: saturation-filter}
                              - {pluginRef: lora-affinity-filter}
                              - {pluginRef: prefix, weight: 3}
                              - {pluginRef: queue-scorer, weight: 2}
                              - {pluginRef: kv, weight: 2}
                              - {pluginRef: lora, weight: 2}
                              - {pluginRef: pick}
                        """.formatted(PREFIX_DEFAULTS)),
                Arguments.of("latency profile", "profile: latency", """
                        plugins:
                          - {type: saturation-filter}
                          - {type: lora-affinity-filter}
                          - {type: running-requests-scorer}
                          - {type: queue-scorer}
                          - {type: kv-cache-scorer}
                          - {type: lora-affinity-scorer}
                          - {type: prefix-cache-scorer}
                        schedulingProfiles:
                          - name: latency
                            plugins:
                              - {pluginRef: saturation-filter}
                              - {pluginRef: lora-affinity-filter}
                              - {pluginRef: running-requests-scorer}
                              - {pluginRef: queue-scorer, weight: 3}
                              - {pluginRef: kv-cache-scorer, weight: 2.0}
                              - {pluginRef: lora-affinity-scorer, weight: 2}
                              - {pluginRef: prefix-cache-scorer, weight: 3}
                        """),
                Arguments.of("throughput profile with two weights over it",
                        "profile: throughput\nweights: {queue: 2, runningRequests: 2}", """
                        plugins:
                          - {type: saturation-filter, parameters: {kvCacheThreshold: 0.8}}
                          - {type: lora-affinity-filter}
                          - {type: prefix-cache-scorer, parameters: {blockSize: 64}}
                          - {type: lora-affinity-scorer}
                          - {type: kv-cache-scorer}
                          - {type: running-requests-scorer}
                          - {type: queue-scorer}
                          - {type: max-score-picker}
                        schedulingProfiles:
                          - name: throughput
                            plugins:
                              - {pluginRef: saturation-filter}
                              - {pluginRef: lora-affinity-filter}
                              - {pluginRef: prefix-cache-scorer, weight: 4}
                              - {pluginRef: lora-affinity-scorer, weight: 3}
                              - {pluginRef: kv-cache-scorer, weight: 3}
                              - {pluginRef: running-requests-scorer, weight: 2}
                              - {pluginRef: queue-scorer, weight: 2}
                              - {pluginRef: max-score-picker}
                        """),
                Arguments.of("default weights, picking by predicted time", "picker: predicted-time", """
                        plugins:
                          - {type: prefix-cache-scorer, name: prefix, parameters: %s}
                          - {type: saturation-filter}
                          - {type: lora-affinity-filter}
                          - {type: kv-cache-scorer}
                          - {type: queue-scorer}
                          - {type: lora-affinity-scorer}
                          - {type: predicted-time-picker}
                        schedulingProfiles:
                          - name: default
                            plugins:
                              - {pluginRef: saturation-filter}
                              - {pluginRef: lora-affinity-filter}
                              - {pluginRef: queue-scorer, weight: 2}
                              - {pluginRef: kv-cache-scorer, weight: 2}
                              - {pluginRef: lora-affinity-scorer, weight: 2}
                              - {pluginRef: prefix, weight: 3}
                              - {pluginRef: predicted-time-picker}
                        """.formatted(PREFIX_DEFAULTS)),
                Arguments.of("no prefix and no LoRA affinity: load alone", "weights: {prefix: 0, loraAffinity: 0}", """
                        plugins:
                          - {type: saturation-filter}
                          - {type: queue-scorer}
                          - {type: kv-cache-scorer}
                          - {type: prefix-cache-scorer}
                        schedulingProfiles:
                          - name: load
                            plugins:
                              - {pluginRef: saturation-filter}
                              - {pluginRef: kv-cache-scorer, weight: 2}
                              - {pluginRef: queue-scorer, weight: 2}
                              - {pluginRef: prefix-cache-scorer, weight: 0}
                        """));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("pairs")
    void bothFormsPickTheSamePods(String scenario, String hyperPod, String plugins) throws Exception {
        for (long seed : new long[] {1, 2, 3}) {
            List<Endpoint> byWeights = run(pool(hyperPod), seed);
            List<Endpoint> byPlugins = run(pool(plugins), seed);

            assertThat(byPlugins).as("seed %d", seed).containsExactlyElementsOf(byWeights);
            assertThat(new HashSet<>(byWeights)).as("the workload spreads over the pool").hasSizeGreaterThan(3);
        }
    }

    @Test
    void theComparisonSeesADifferentWeight() throws Exception {
        List<Endpoint> byWeights = run(pool(""), 1);
        List<Endpoint> queueHeavier = run(pool("weights: {queue: 3}"), 1);

        assertThat(queueHeavier).isNotEqualTo(byWeights);
    }

    private static PoolConfig pool(String fields) throws InvalidConfigException {
        StringBuilder endpoints = new StringBuilder();
        for (int i = 1; i <= PODS; i++) {
            endpoints.append(i == 1 ? "" : ", ").append('"').append(pod(i).host()).append(":8000\"");
        }
        String yaml = """
                apiVersion: inferencegateway.io/v1alpha1
                kind: InferenceGatewayConfig
                metadata: {name: equivalence}
                spec:
                  schedulers:
                    - modelName: %s
                      loraAdapters: [sql, chat, law]
                      endpoints: [%s]
                """.formatted(MODEL, endpoints) + fields.indent(6);
        return ConfigLoader.parse(yaml).pools().get(0);
    }

    /** The picks of a pool for a workload drawn from {@code seed}; the picker breaks ties with the same seed. */
    private static List<Endpoint> run(PoolConfig pool, long seed) {
        SplittableRandom workload = new SplittableRandom(seed);
        long[] now = {1_000 * MS};
        InFlightRequests inFlight = new InFlightRequests();
        Map<Endpoint, EndpointMetrics> scrapes = new HashMap<>();
        PluginPolicy policy = PluginPolicy.forPool(pool, scrapes::get, inFlight, () -> now[0],
                SchedulerEvents.NONE, new SplittableRandom(seed * 31 + 7));
        List<Endpoint> pods = new ArrayList<>();
        for (int i = 1; i <= PODS; i++) {
            pods.add(pod(i));
        }
        List<Endpoint> outstanding = new ArrayList<>();
        List<Endpoint> picks = new ArrayList<>();
        for (int r = 0; r < REQUESTS; r++) {
            if (r % 100 == 99) {
                now[0] += 250 * MS; // a scrape outage: everything stale for a while
            } else {
                now[0] += workload.nextInt(30) * MS;
            }
            for (Endpoint e : pods) {
                if (r % 100 < 97 && workload.nextInt(4) == 0) {
                    scrapes.put(e, randomScrape(workload, now[0], inFlight.snapshot(e)));
                }
            }
            while (!outstanding.isEmpty() && workload.nextInt(3) == 0) {
                inFlight.finished(outstanding.remove(workload.nextInt(outstanding.size())));
            }
            InferenceRequest request = randomRequest(workload);
            List<Endpoint> candidates = workload.nextInt(10) == 0 ? pods.subList(0, PODS - 2) : pods;
            Endpoint chosen = decideNow(policy, request, candidates).endpoint();
            inFlight.started(chosen, request.promptTokensEstimate());
            outstanding.add(chosen);
            picks.add(chosen);
        }
        return picks;
    }

    private static EndpointMetrics randomScrape(SplittableRandom w, long now, InFlightRequests.Counters dispatched) {
        Set<String> running = new HashSet<>();
        Set<String> waiting = new HashSet<>();
        for (String a : ADAPTERS) {
            int state = w.nextInt(4);
            if (state == 0) {
                running.add(a);
            } else if (state == 1) {
                waiting.add(a);
            }
        }
        return Scenarios.scrape().waiting(w.nextInt(8)).running(w.nextInt(32)).kv(w.nextDouble() * 0.95)
                .lora(running, waiting, 2).kvGeometry(16, 2_000 + w.nextInt(4_000)).at(now).dispatched(dispatched)
                .build();
    }

    private static InferenceRequest randomRequest(SplittableRandom w) {
        String prompt = prompt("doc" + w.nextInt(6), 1 + w.nextInt(20)) + "question " + w.nextInt(1000);
        if (w.nextInt(4) == 0) {
            String adapter = ADAPTERS[w.nextInt(ADAPTERS.length)];
            return InferenceRequest.builder(adapter).adapter(adapter).promptText(prompt)
                    .promptTokensEstimate(InferenceRequest.estimateTokens(prompt)).build();
        }
        return InferenceRequest.builder(MODEL).promptText(prompt)
                .promptTokensEstimate(InferenceRequest.estimateTokens(prompt)).build();
    }
}
