package io.inferencegateway.lab.bench.workload;

import java.util.List;

/**
 * Every conversation of one run, fixed before the run: when each starts and what each of its turns asks. When a
 * later turn is sent depends on when the previous one ends (closed loop per conversation), so only its think time
 * is planned.
 *
 * @param spanNanos the simulated span the conversations' starts were drawn over
 */
public record ConversationPlan(List<Conversation> conversations, long spanNanos) {

    /**
     * @param index      position among all turns of the plan, 0-based (the request's X-Request-Id suffix)
     * @param turn       1-based position in its conversation
     * @param thinkNanos pause after the previous turn's answer ended before this one is sent (0 for turn 1)
     */
    public record Turn(int index, int conversation, int turn, long thinkNanos, RequestSpec spec) {
    }

    /** @param startNanos when its first turn is sent, simulated time after the run start */
    public record Conversation(int id, long startNanos, List<Turn> turns) {

        public Conversation {
            turns = List.copyOf(turns);
        }
    }

    public ConversationPlan {
        conversations = List.copyOf(conversations);
        int next = 0;
        for (Conversation c : conversations) {
            for (Turn t : c.turns()) {
                if (t.index() != next++) {
                    throw new IllegalArgumentException("turn indices must run 0, 1, 2, ... in conversation order");
                }
            }
        }
    }

    public int turnCount() {
        return conversations.stream().mapToInt(c -> c.turns().size()).sum();
    }

    /**
     * Mean over the second half of the span of the tokens live conversations hold (the prompt and answer of the
     * turn each is on), if every turn took {@code turnNanos} from send to the answer's end: what the fleet's KV cache
     * must hold for every conversation to find its context again. Sampled every simulated second.
     */
    public double meanLiveContextTokens(long turnNanos) {
        return meanLiveContextTokens(turnNanos, spanNanos / 2, spanNanos);
    }

    /** The same, sampled every simulated second from {@code fromNanos} (inclusive) to {@code toNanos}. */
    public double meanLiveContextTokens(long turnNanos, long fromNanos, long toNanos) {
        long step = 1_000_000_000L;
        double sum = 0;
        int samples = 0;
        for (long t = fromNanos; t < toNanos; t += step) {
            long tokens = 0;
            for (Conversation c : conversations) {
                long clock = c.startNanos();
                int held = 0;
                for (Turn turn : c.turns()) {
                    clock += turn.thinkNanos();
                    if (clock > t) {
                        break;
                    }
                    held = turn.spec().promptTokens() + turn.spec().maxTokens();
                    clock += turnNanos;
                }
                if (held > 0 && clock > t) {
                    tokens += held; // started its current turn and its last answer has not ended yet
                }
            }
            sum += tokens;
            samples++;
        }
        return samples == 0 ? 0 : sum / samples;
    }
}
