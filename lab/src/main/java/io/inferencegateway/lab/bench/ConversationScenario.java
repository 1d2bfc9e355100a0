package io.inferencegateway.lab.bench;

import java.time.Duration;
import java.util.List;
import java.util.Locale;

import io.inferencegateway.lab.bench.fleet.FleetSpec;
import io.inferencegateway.lab.bench.gateway.BenchPolicy;
import io.inferencegateway.lab.bench.workload.ConversationPlan;
import io.inferencegateway.lab.bench.workload.ConversationWorkload;
import io.inferencegateway.lab.bench.workload.IntRange;

/**
 * The {@code conversations} scenario (docs/benchmarks/conversations.md): multi-turn chats whose contexts grow turn by
 * turn, on a fleet whose KV cache holds every live conversation's context only if each stays on one pod.
 *
 * @param conversationsPerSecond mean rate at which new conversations start (Poisson), simulated time
 * @param span                   simulated time over which conversations start; their last turns end later
 * @param turnEstimate           what one turn is taken to last, send to last token, when sizing the KV cache
 * @param kvHeadroom             the fleet's KV cache over the live conversations' mean total context
 */
public record ConversationScenario(String name, String summary, FleetSpec fleet, ConversationWorkload workload,
                                   double conversationsPerSecond, Duration span, int maxConversations,
                                   Duration turnEstimate, double kvHeadroom) {

    public static final String NAME = "conversations";

    /**
     * What it compares when no policy is named: no affinity at all (round-robin, the baseline of the ratios), no
     * affinity but load (least-request), the GPU-aware policy with the weighted-sum picker (the previous default),
     * and the GPU-aware policy as configured by default.
     */
    public static final List<String> POLICIES = List.of("round-robin", "least-request", BenchPolicy.GPU_AWARE_MAX_SCORE,
            "gpu-aware");
    /** Gateway replicas it runs each policy with when none are named. */
    public static final List<Integer> REPLICAS = List.of(1, 3);

    private static final int PODS = 4;
    private static final int BLOCK_TOKENS = 16;

    /**
     * Four pods; a conversation every simulated second for 80 s, 6-16 turns each with 3 s of thought between them,
     * so some 40 are live at once. Each pod's KV cache is sized to 1.3 times its even share of their contexts (from
     * the plan of a fixed seed, with a turn taken to last one simulated second).
     */
    public static ConversationScenario standard(String model) {
        ConversationWorkload workload = new ConversationWorkload(model, new IntRange(6, 16), 64, new IntRange(32, 160),
                new IntRange(24, 96), Duration.ofSeconds(3));
        double rate = 1.0;
        Duration span = Duration.ofSeconds(80);
        Duration turn = Duration.ofSeconds(1);
        double headroom = 1.3;
        ConversationPlan probe = workload.plan(CapacityProbe.PROBE_SEED, rate, span, Integer.MAX_VALUE);
        int blocks = kvBlocksPerPod(probe, turn, headroom, PODS);
        FleetSpec fleet = new FleetSpec(model, FleetSpec.pods(PODS), List.of(), 0, blocks, 64,
                FleetSpec.DEFAULT_MAX_NUM_BATCHED_TOKENS, 1.0);
        return new ConversationScenario(NAME, String.format(Locale.ROOT, "multi-turn conversations (growing contexts, "
                + "think time, prompt_cache_key) on %d pods whose KV caches hold %.1fx the live conversations' context "
                + "spread evenly", PODS, headroom), fleet, workload, rate, span, 10_000, turn, headroom);
    }

    /** Blocks per pod for the pods to hold {@code headroom} times the plan's mean live context, spread evenly. */
    static int kvBlocksPerPod(ConversationPlan plan, Duration turn, double headroom, int pods) {
        double tokens = plan.meanLiveContextTokens(turn.toNanos());
        return Math.max(1, (int) Math.ceil(headroom * tokens / BLOCK_TOKENS / pods));
    }

    public ConversationPlan plan(long seed, Duration spanOverride) {
        return workload.plan(seed, conversationsPerSecond, spanOverride != null ? spanOverride : span, maxConversations);
    }

    /**
     * Turns per simulated second the plan sends on average, if each conversation lasts its turns and think times
     * with every turn taking {@link #turnEstimate}: what the time scale is chosen from.
     */
    public double turnRate(ConversationPlan plan) {
        long end = 0;
        for (ConversationPlan.Conversation c : plan.conversations()) {
            long t = c.startNanos();
            for (ConversationPlan.Turn turn : c.turns()) {
                t += turn.thinkNanos() + turnEstimate.toNanos();
            }
            end = Math.max(end, t);
        }
        return end == 0 ? 0 : plan.turnCount() / (end / 1e9);
    }
}
