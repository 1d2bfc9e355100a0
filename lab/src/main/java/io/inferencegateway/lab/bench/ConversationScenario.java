package io.inferencegateway.lab.bench;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import io.inferencegateway.lab.bench.fleet.FleetSpec;
import io.inferencegateway.lab.bench.gateway.BenchPolicy;
import io.inferencegateway.lab.bench.workload.ConversationPlan;
import io.inferencegateway.lab.bench.workload.ConversationWorkload;
import io.inferencegateway.lab.bench.workload.IntRange;

/**
 * The conversation scenarios (docs/benchmarks/conversations.md): multi-turn chats whose contexts grow turn by turn.
 * {@code conversations} runs them on a fleet whose KV cache holds every live conversation's context only if each stays
 * on one pod; {@code long-conversations} on one whose KV cache cannot hold them all however they are placed.
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

    /** The scenario shaped like an externally written chat workload: long system prompts, KV cache too small. */
    public static final String LONG = "long-conversations";

    /** Every conversation scenario; each runs only when named. */
    public static final List<String> NAMES = List.of(NAME, LONG);

    /**
     * What it compares when no policy is named: no affinity at all (round-robin, the baseline of the ratios), no
     * affinity but load (least-request), the GPU-aware policy as configured by default (the highest weighted score),
     * and the same with the picker that goes by predicted time.
     */
    public static final List<String> POLICIES = List.of("round-robin", "least-request", "gpu-aware",
            BenchPolicy.GPU_AWARE_PREDICTED_TIME);
    /** Gateway replicas it runs each policy with when none are named. */
    public static final List<Integer> REPLICAS = List.of(1, 3);

    private static final int PODS = 4;
    private static final int BLOCK_TOKENS = 16;

    /** {@code long-conversations}' pods. */
    static final int LONG_PODS = 8;
    /** {@code long-conversations}' chats, all live at once. */
    static final int LONG_CONVERSATIONS = 96;
    /**
     * Each {@code long-conversations} chat's own system prompt: 5,600 characters, some 1,000 words of the synthetic
     * text (1,400 tokens by the simulator's four characters a token).
     */
    static final int LONG_SYSTEM_PROMPT_TOKENS = 1400;

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
        int blocks = kvBlocksPerPod(probe.meanLiveContextTokens(turn.toNanos()), headroom, PODS);
        return new ConversationScenario(NAME, String.format(Locale.ROOT, "multi-turn conversations (growing contexts, "
                + "think time, prompt_cache_key) on %d pods whose KV caches hold %.1fx the live conversations' context "
                + "spread evenly", PODS, headroom), fleet(model, PODS, blocks), workload, rate, span, 10_000, turn,
                headroom);
    }

    /**
     * The shape of a chat workload written outside this project: {@value #LONG_CONVERSATIONS} chats that all start
     * within the first seconds (Poisson at 12 a second) and run side by side, 6-12 turns each with 3 s of thought
     * between them, each with its own system prompt of some 1,000 words, its history growing turn by turn, and its id
     * in the body's {@code user} field (not {@code prompt_cache_key}). Eight pods whose KV caches together hold 0.8
     * times the live conversations' histories (their mean over the 30 simulated seconds after the last chat started,
     * from a fixed seed's plan, a turn taken to last 1.5 s): even a router that keeps every conversation on one pod
     * sees some evicted, and one that spreads them evicts far more.
     */
    public static ConversationScenario longConversations(String model) {
        ConversationWorkload workload = new ConversationWorkload(model, new IntRange(6, 12), LONG_SYSTEM_PROMPT_TOKENS,
                new IntRange(32, 160), new IntRange(48, 192), Duration.ofSeconds(3),
                ConversationWorkload.NamedBy.USER);
        double rate = 12.0;
        Duration span = Duration.ofSeconds(20);
        Duration turn = Duration.ofMillis(1500);
        double headroom = 0.8;
        ConversationPlan probe = workload.plan(CapacityProbe.PROBE_SEED, rate, span, LONG_CONVERSATIONS);
        long lastStart = probe.conversations().get(probe.conversations().size() - 1).startNanos();
        double live = probe.meanLiveContextTokens(turn.toNanos(), lastStart,
                lastStart + Duration.ofSeconds(30).toNanos());
        int blocks = kvBlocksPerPod(live, headroom, LONG_PODS);
        return new ConversationScenario(LONG, String.format(Locale.ROOT, "%d concurrent multi-turn chats (up to "
                        + "12 turns, a ~1,000-word system prompt of its own each, growing histories, the OpenAI user "
                        + "field per conversation) on %d pods whose KV caches hold %.1fx the live conversations' "
                        + "histories: evictions even when every conversation stays on its pod", LONG_CONVERSATIONS,
                LONG_PODS, headroom), fleet(model, LONG_PODS, blocks), workload, rate, span, LONG_CONVERSATIONS, turn,
                headroom);
    }

    /** The conversation scenario of that name, if there is one. */
    public static Optional<ConversationScenario> byName(String name, String model) {
        return switch (name) {
            case NAME -> Optional.of(standard(model));
            case LONG -> Optional.of(longConversations(model));
            default -> Optional.empty();
        };
    }

    private static FleetSpec fleet(String model, int pods, int kvBlocksPerPod) {
        return new FleetSpec(model, FleetSpec.pods(pods), List.of(), 0, kvBlocksPerPod, 64,
                FleetSpec.DEFAULT_MAX_NUM_BATCHED_TOKENS, 1.0);
    }

    /** Blocks per pod for the pods to hold {@code headroom} times {@code liveTokens}, spread evenly. */
    static int kvBlocksPerPod(double liveTokens, double headroom, int pods) {
        return Math.max(1, (int) Math.ceil(headroom * liveTokens / BLOCK_TOKENS / pods));
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
