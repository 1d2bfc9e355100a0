package io.inferencegateway.lab.bench.workload;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Multi-turn chats, as a chat client or an agent sends them: each turn's prompt is the whole conversation so far
 * (a short opener of its own, every earlier question and answer) plus a new question, so contexts grow turn by
 * turn; between turns the user thinks; every turn carries its conversation's id as {@code prompt_cache_key}.
 *
 * <p>The answers in later prompts are replayed by the client from the seed, of exactly the length the model was
 * asked to produce (the simulator produces exactly {@code max_tokens}): the simulator caches the blocks of a prompt,
 * and the blocks it generated never line up with the next prompt's (that one has the assistant header before the
 * answer), so what a later turn can find in the cache is its previous turn's prompt whatever the answer's words.
 *
 * @param turns        turns per conversation
 * @param openerTokens the conversation's own system text, which opens with its id so that no two conversations
 *                     share a cache block
 * @param userTokens   each new question
 * @param answerTokens each answer ({@code max_tokens})
 * @param meanThink    mean pause between the end of a turn's answer and the next question, simulated time;
 *                     exponential
 * @param namedBy      the body field that carries the conversation's id on every turn
 */
public record ConversationWorkload(String model, IntRange turns, int openerTokens, IntRange userTokens,
                                   IntRange answerTokens, Duration meanThink, NamedBy namedBy) {

    public static final String KIND = "conversation";

    /** Where a client puts the name of its conversation: both are keys the gateway's session affinity reads. */
    public enum NamedBy {
        /** {@code prompt_cache_key}, OpenAI's name for a conversation's cache bucket. */
        PROMPT_CACHE_KEY("prompt_cache_key"),
        /** {@code user}, OpenAI's end-user id, which clients written before prompt_cache_key set per conversation. */
        USER("user");

        private final String field;

        NamedBy(String field) {
            this.field = field;
        }

        public String field() {
            return field;
        }
    }

    /** Conversations named by {@code prompt_cache_key}. */
    public ConversationWorkload(String model, IntRange turns, int openerTokens, IntRange userTokens,
                                IntRange answerTokens, Duration meanThink) {
        this(model, turns, openerTokens, userTokens, answerTokens, meanThink, NamedBy.PROMPT_CACHE_KEY);
    }

    public ConversationWorkload {
        if (turns.min() < 1 || openerTokens < 1 || userTokens.min() < 1 || answerTokens.min() < 1) {
            throw new IllegalArgumentException("turns and sizes must be positive");
        }
        if (namedBy == null) {
            throw new IllegalArgumentException("say which field names the conversation");
        }
        if (meanThink.isNegative()) {
            throw new IllegalArgumentException("think time must not be negative");
        }
    }

    /**
     * Conversations that start at Poisson arrivals over {@code span} (simulated), at most {@code maxConversations};
     * the same seed always gives the same conversations.
     */
    public ConversationPlan plan(long seed, double conversationsPerSecond, Duration span, int maxConversations) {
        SplittableRandom arrivals = Seeds.ARRIVALS.stream(seed);
        SplittableRandom content = Seeds.CONTENT.stream(seed);
        List<ConversationPlan.Conversation> conversations = new ArrayList<>();
        long t = 0;
        int index = 0;
        while (conversations.size() < maxConversations) {
            t += ArrivalProcess.exponentialGapNanos(conversationsPerSecond, arrivals);
            if (t >= span.toNanos()) {
                break;
            }
            ConversationPlan.Conversation c = conversation(conversations.size(), t, index, content);
            index += c.turns().size();
            conversations.add(c);
        }
        return new ConversationPlan(conversations, span.toNanos());
    }

    private ConversationPlan.Conversation conversation(int id, long start, int firstIndex, SplittableRandom rng) {
        String key = "conv-" + id;
        int count = turns.sample(rng);
        List<ChatMessage> history = new ArrayList<>(2 * count + 1);
        history.add(ChatMessage.system(SyntheticText.of("Conversation " + id + ":", TokenContract.chars(openerTokens),
                rng)));
        List<ConversationPlan.Turn> planned = new ArrayList<>(count);
        for (int turn = 1; turn <= count; turn++) {
            history.add(ChatMessage.user(SyntheticText.of("Question " + turn + ":",
                    TokenContract.chars(userTokens.sample(rng)), rng)));
            int answer = answerTokens.sample(rng);
            long think = turn == 1 || meanThink.isZero() ? 0
                    : ArrivalProcess.exponentialGapNanos(1e9 / meanThink.toNanos(), rng);
            planned.add(new ConversationPlan.Turn(firstIndex + turn - 1, id, turn, think,
                    new RequestSpec(model, history, answer, KIND, key, "", SloClass.NONE,
                            namedBy == NamedBy.PROMPT_CACHE_KEY ? key : "", namedBy == NamedBy.USER ? key : "")));
            history.add(new ChatMessage("assistant", SyntheticText.of("", TokenContract.chars(answer), rng)));
        }
        return new ConversationPlan.Conversation(id, start, planned);
    }

    public String describe() {
        return String.format(java.util.Locale.ROOT, "conversations: %s turns, opener %d + question %s tokens per turn, "
                        + "answers %s tokens, think time exponential with mean %.1f s, %s per conversation",
                turns, openerTokens, userTokens, answerTokens, meanThink.toMillis() / 1e3, namedBy.field());
    }
}
