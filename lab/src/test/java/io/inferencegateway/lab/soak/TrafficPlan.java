package io.inferencegateway.lab.soak;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import io.inferencegateway.lab.bench.workload.SyntheticText;
import io.inferencegateway.lab.bench.workload.TokenContract;
import io.inferencegateway.lab.soak.PlannedCall.Tenant;

/**
 * The seeded traffic plan: Poisson arrivals at {@code rate} per second, half of them streams; tenants gold 40 %,
 * silver 35 %, bronze 25 %; one request in five names its own priority in {@code x-gateway-priority}; prompts of
 * {@link #PROMPT_TOKENS_MIN}..{@link #PROMPT_TOKENS_MAX} tokens and {@code max_tokens} of
 * {@link #OUTPUT_TOKENS_MIN}..{@link #OUTPUT_TOKENS_MAX}; one gold stream in ten is hung up on after 1 to 4 chunks.
 * Requests alternate between the two replicas at random. The same seed gives the same plan.
 */
final class TrafficPlan {

    static final int PROMPT_TOKENS_MIN = 40;
    static final int PROMPT_TOKENS_MAX = 160;
    static final int OUTPUT_TOKENS_MIN = 16;
    static final int OUTPUT_TOKENS_MAX = 64;
    private static final String[] PRIORITIES = {"critical", "standard", "sheddable", "5"};

    private TrafficPlan() {
    }

    static List<PlannedCall> generate(long seed, double rate, long loadMillis) {
        SplittableRandom rng = new SplittableRandom(seed ^ 0x7EAF1CL);
        List<PlannedCall> calls = new ArrayList<>();
        double t = 0;
        for (int id = 0; ; id++) {
            t += -Math.log(1 - rng.nextDouble()) * 1000 / rate;
            if (t >= loadMillis) {
                break;
            }
            int r = rng.nextInt(100);
            Tenant tenant = r < 40 ? Tenant.GOLD : r < 75 ? Tenant.SILVER : Tenant.BRONZE;
            boolean stream = rng.nextBoolean();
            String priority = rng.nextInt(5) == 0 ? PRIORITIES[rng.nextInt(PRIORITIES.length)] : null;
            int promptTokens = PROMPT_TOKENS_MIN + rng.nextInt(PROMPT_TOKENS_MAX - PROMPT_TOKENS_MIN + 1);
            String prompt = SyntheticText.of("Soak request " + id + ":", TokenContract.chars(promptTokens), rng);
            int maxTokens = OUTPUT_TOKENS_MIN + rng.nextInt(OUTPUT_TOKENS_MAX - OUTPUT_TOKENS_MIN + 1);
            int hangUp = stream && tenant == Tenant.GOLD && rng.nextInt(10) == 0 ? 1 + rng.nextInt(4) : -1;
            calls.add(new PlannedCall(id, (long) t, tenant, stream, priority, prompt, maxTokens, hangUp,
                    rng.nextInt(2)));
        }
        return List.copyOf(calls);
    }
}
