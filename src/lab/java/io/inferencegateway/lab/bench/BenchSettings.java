package io.inferencegateway.lab.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

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
 */
public record BenchSettings(List<String> scenarios, List<String> policies, Double rate, Double load,
                            Duration duration, Integer maxRequests, long seed, Double timeScale, double eventBudget,
                            String model, Duration requestTimeout, Duration drainTimeout, Path out) {

    public BenchSettings {
        scenarios = List.copyOf(scenarios);
        policies = List.copyOf(policies);
        if (scenarios.isEmpty() || policies.isEmpty()) {
            throw new IllegalArgumentException("need at least one scenario and one policy");
        }
    }
}
