package io.inferencegateway.lab.bench.workload;

import java.util.SplittableRandom;

/**
 * Deterministic filler text of an exact length, drawn from a seeded random stream. Plain ASCII, so
 * characters and bytes agree and the token contract (4 characters per token) holds exactly.
 */
public final class SyntheticText {

    private static final String[] WORDS = {
        "the", "model", "server", "answers", "every", "request", "with", "tokens", "from", "a",
        "shared", "cache", "of", "keys", "and", "values", "so", "that", "later", "prompts",
        "reuse", "work", "already", "done", "on", "one", "GPU", "while", "others", "wait",
        "in", "queue", "for", "their", "turn", "to", "decode", "next", "word", "quickly",
        "router", "picks", "pod", "whose", "adapter", "is", "resident", "memory", "batch", "grows",
        "until", "limit", "then", "new", "work", "waits", "policy", "score", "prefix", "block",
        "latency", "first", "token", "stream",
    };

    private SyntheticText() {
    }

    /** Exactly {@code length} characters: {@code head} followed by random words, cut to size. */
    public static String of(String head, int length, SplittableRandom rng) {
        StringBuilder sb = new StringBuilder(length + 16);
        sb.append(head);
        int words = 0;
        while (sb.length() < length) {
            if (sb.length() > 0) {
                sb.append(++words % 12 == 0 ? ". " : " ");
            }
            sb.append(WORDS[rng.nextInt(WORDS.length)]);
        }
        sb.setLength(length);
        return sb.toString();
    }
}
