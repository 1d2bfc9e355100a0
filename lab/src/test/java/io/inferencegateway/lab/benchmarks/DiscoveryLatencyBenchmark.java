package io.inferencegateway.lab.benchmarks;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import io.inferencegateway.pool.ModelPool;
import io.inferencegateway.testing.GatewayHarness;
import io.inferencegateway.testing.MockCluster;
import io.inferencegateway.testing.TestUpstream;

/**
 * How soon a pod's readiness change reaches the pool the request path reads: the real gateway (YAML routes, the
 * model-server-pods-source Kamelet, camel-kubernetes' watch) against fabric8's mock API server on loopback. Each
 * round flips the pod's Ready condition through the API and times from the API call's return until the pool's
 * endpoint list shows the change. The resync is set to an hour, so only the watch can explain a change.
 *
 * <pre>
 * mvn -B -q package -DskipTests
 * java -cp lab/target/test-classes:lab/target/classes:$(cat lab/target/test-classpath.txt) \
 *      io.inferencegateway.lab.benchmarks.DiscoveryLatencyBenchmark [rounds]
 * </pre>
 */
public final class DiscoveryLatencyBenchmark {

    private DiscoveryLatencyBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 100;
        try (MockCluster cluster = new MockCluster(); TestUpstream upstream = new TestUpstream()) {
            String config = "kind: InferenceGatewayConfig\nspec:\n  schedulers:\n"
                    + "    - {name: llama, modelName: llama, namespace: models, targetPort: " + upstream.port()
                    + ", modelSelector: {matchLabels: {app: llama}}}\n";
            try (GatewayHarness gateway = GatewayHarness.start(config, Map.of(
                    "gateway.kubernetes.masterUrl", cluster.masterUrl(),
                    "gateway.kubernetes.resyncPeriod", "3600000"))) {
                cluster.createPod("models", "llama-0", Map.of("app", "llama"), "127.0.0.1", false);
                List<Double> millis = new ArrayList<>();
                for (int i = 0; i < rounds + 10; i++) {
                    boolean ready = i % 2 == 0;
                    cluster.setReady("models", "llama-0", ready);
                    long changed = System.nanoTime();
                    long deadline = changed + 10_000_000_000L;
                    while (pool(gateway).endpoints().isEmpty() == ready) {
                        if (System.nanoTime() > deadline) {
                            throw new IllegalStateException("change not seen within 10 s in round " + i);
                        }
                        Thread.onSpinWait();
                    }
                    if (i >= 10) { // the first rounds warm the JIT up
                        millis.add((System.nanoTime() - changed) / 1e6);
                    }
                }
                Collections.sort(millis);
                System.out.printf("readiness change -> pool endpoints, %d rounds: p50 %.2f ms, p90 %.2f ms, max %.2f ms%n",
                        rounds, millis.get(rounds / 2), millis.get(rounds * 9 / 10), millis.get(rounds - 1));
            }
        }
    }

    private static ModelPool pool(GatewayHarness gateway) {
        return gateway.server().gateway().pools().pool("llama");
    }
}
