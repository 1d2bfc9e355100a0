package io.inferencegateway.lab.bench;

import java.time.Duration;
import java.util.List;

import io.inferencegateway.lab.bench.fleet.FleetSpec;
import io.inferencegateway.lab.bench.gateway.RolloutConfigWriter;
import io.inferencegateway.lab.bench.workload.IntRange;
import io.inferencegateway.lab.bench.workload.UniquePromptWorkload;

/**
 * The {@code rollout} scenario (docs/benchmarks/rollout.md): clients ask for one model name, which a model rewrite
 * serves from a baseline version while a rollout moves the traffic to a candidate step by step; run once per
 * {@link Variant}, a healthy candidate and bad ones. Each version is a pool of its own simulated pods.
 *
 * @param rate     requests per simulated second (Poisson), all for the client-facing name
 * @param span     simulated time over which requests arrive
 */
public record RolloutScenario(String name, String summary, FleetSpec baseline, FleetSpec candidate,
                              UniquePromptWorkload workload, double rate, Duration span, RolloutConfigWriter.Plan plan,
                              List<Variant> variants) {

    public static final String NAME = "rollout";

    /**
     * What the candidate is like in one run.
     *
     * @param speed      its pods' speed factor (1 as the baseline's; 1/3 is three times slower)
     * @param errorShare the share of its requests that answer 500
     */
    public record Variant(String label, String fault, double speed, double errorShare) {
    }

    public RolloutScenario {
        variants = List.copyOf(variants);
    }

    /**
     * Two pods per version; 80 requests a second of short unique prompts for 80 s; the rollout 1 % → 5 % → 25 % →
     * 100 %, 20 s a step, judged every second once each side has 20 requests, on error rate (1 point) and TTFT and
     * TPOT p90 (1.5x). At 1 % the candidate gets its 20 requests in about 25 s.
     */
    public static RolloutScenario standard() {
        String client = "chat";
        FleetSpec baseline = new FleetSpec("llama-v1", FleetSpec.pods(2), List.of(), 0, 6144, 64,
                FleetSpec.DEFAULT_MAX_NUM_BATCHED_TOKENS, 1.0);
        FleetSpec candidate = baseline.withModelName("llama-v2");
        RolloutConfigWriter.Plan plan = new RolloutConfigWriter.Plan(client, List.of(
                new RolloutConfigWriter.Plan.Step(1, Duration.ofSeconds(20)),
                new RolloutConfigWriter.Plan.Step(5, Duration.ofSeconds(20)),
                new RolloutConfigWriter.Plan.Step(25, Duration.ofSeconds(20)),
                new RolloutConfigWriter.Plan.Step(100, null)), 20, Duration.ofSeconds(1), 0.01, 1.5);
        return new RolloutScenario(NAME, "one model name served by two versions (a pool of 2 pods each) behind a model "
                + "rewrite whose rollout moves the traffic 1% -> 5% -> 25% -> 100%, 20 s a step", baseline, candidate,
                new UniquePromptWorkload(client, new IntRange(64, 256), new IntRange(8, 24)), 80, Duration.ofSeconds(80),
                plan, List.of(new Variant("healthy", "as fast as the baseline", 1.0, 0),
                        new Variant("slow", "3x slower", 1.0 / 3, 0),
                        new Variant("errors", "5% of requests answer 500", 1.0, 0.05)));
    }
}
