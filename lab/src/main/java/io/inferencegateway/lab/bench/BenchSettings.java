package io.inferencegateway.lab.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import io.inferencegateway.lab.bench.gateway.ReplicaMode;

/**
 * What to run. Null fields take the scenario's default.
 *
 * @param rate            mean arrival rate in requests per simulated second; wins over {@code load}
 * @param load            offered load as a share of the scenario's estimated capacity
 * @param duration        simulated span over which requests arrive
 * @param timeScale       simulated seconds per wall second; null chooses one from {@code eventBudget}
 * @param eventBudget     SSE events per wall second the machine is trusted to carry
 * @param requestTimeout  per-request limit, simulated time
 * @param drainTimeout    wall-clock wait for stragglers after the last send
 * @param replicas        gateway replica counts to run each policy with (1: one gateway)
 * @param replicaModes    how replicas of a gpu-aware gateway know about each other; other policies run naive
 * @param killReplicaAt   share of the arrival span after which one replica of a multi-replica run is killed;
 *                        null for none
 */
public record BenchSettings(List<String> scenarios, List<String> policies, Double rate, Double load,
                            Duration duration, Integer maxRequests, long seed, Double timeScale, double eventBudget,
                            String model, Duration requestTimeout, Duration drainTimeout, Path out,
                            List<Integer> replicas, List<ReplicaMode> replicaModes, Double killReplicaAt) {

    public BenchSettings {
        scenarios = List.copyOf(scenarios);
        policies = List.copyOf(policies);
        replicas = List.copyOf(replicas);
        replicaModes = List.copyOf(replicaModes);
        if (scenarios.isEmpty() || policies.isEmpty()) {
            throw new IllegalArgumentException("need at least one scenario and one policy");
        }
        if (replicas.isEmpty() || replicas.stream().anyMatch(r -> r < 1)) {
            throw new IllegalArgumentException("--replicas must list counts of at least 1");
        }
        if (replicaModes.isEmpty()) {
            throw new IllegalArgumentException("need at least one replica mode");
        }
        if (killReplicaAt != null && !(killReplicaAt > 0 && killReplicaAt < 1)) {
            throw new IllegalArgumentException("--kill-replica-at must be between 0 and 1, got " + killReplicaAt);
        }
    }

    /** One gateway per run, as before replicas existed. */
    public BenchSettings(List<String> scenarios, List<String> policies, Double rate, Double load, Duration duration,
                         Integer maxRequests, long seed, Double timeScale, double eventBudget, String model,
                         Duration requestTimeout, Duration drainTimeout, Path out) {
        this(scenarios, policies, rate, load, duration, maxRequests, seed, timeScale, eventBudget, model,
                requestTimeout, drainTimeout, out, List.of(1), List.of(ReplicaMode.NAIVE), null);
    }
}
