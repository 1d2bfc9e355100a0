package io.inferencegateway.simulator;

import java.util.List;

/**
 * The simulator's tokenizer, a CONTRACT that the gateway's prefix index and the benchmark rely on.
 *
 * <ul>
 *   <li>One token per 4 Java chars of the prompt text; a trailing chunk of 1..3 chars is one token too,
 *       so a text of {@code n} chars has {@code ceil(n / 4)} tokens and a prompt of N tokens is 4N chars.</li>
 *   <li>Each token id is a hash of its chunk: equal chunks give equal ids.</li>
 *   <li>A chat request's prompt text is its messages serialized in order, each as
 *       {@code "<|" + role + "|>\n" + content + "\n"}.</li>
 *   <li>KV blocks hold 16 tokens, so one block covers 64 prompt chars.</li>
 *   <li>Generated tokens are 4-char words (a space and three letters), chosen by a seeded hash,
 *       so generated text is 4 chars per token as well.</li>
 * </ul>
 */
public final class Tokenizer {

    /** Chars per token. */
    public static final int CHARS_PER_TOKEN = 4;

    private static final String[] WORDS = {
        " the", " and", " for", " you", " are", " not", " but", " can", " all", " one", " was", " use",
        " new", " get", " how", " may", " way", " who", " its", " now", " day", " see", " two", " any",
        " out", " run", " set", " key", " map", " sky", " sea", " red", " big", " low", " top", " end",
        " few", " own", " old", " why", " let", " put", " say", " too", " yes", " via", " per", " sum",
        " net", " log", " row", " bit", " add", " job", " fix", " try", " act", " age", " air", " art",
        " box", " car", " cup", " dog"};

    private Tokenizer() {
    }

    /** Token ids of a text: one per 4-char chunk. */
    public static int[] encode(String text) {
        int n = tokenCount(text);
        int[] ids = new int[n];
        for (int t = 0; t < n; t++) {
            int from = t * CHARS_PER_TOKEN;
            ids[t] = chunkId(text, from, Math.min(text.length(), from + CHARS_PER_TOKEN));
        }
        return ids;
    }

    /** Number of tokens of a text, ceil(chars / 4). */
    public static int tokenCount(String text) {
        return (text.length() + CHARS_PER_TOKEN - 1) / CHARS_PER_TOKEN;
    }

    /** The prompt text of a chat request: each message as {@code <|role|>\ncontent\n}, in order. */
    public static String chatPromptText(List<ChatMessage> messages) {
        StringBuilder sb = new StringBuilder();
        for (ChatMessage m : messages) {
            sb.append("<|").append(m.role()).append("|>\n").append(m.content()).append('\n');
        }
        return sb.toString();
    }

    /** The {@code index}-th generated word of a request whose generation is seeded by {@code seed}. */
    public static String generatedWord(long seed, int index) {
        return WORDS[(int) (mix(seed + 0x9E3779B97F4A7C15L * (index + 1)) >>> 58)];
    }

    /** The words generated tokens are drawn from. */
    static List<String> generatedWords() {
        return List.of(WORDS);
    }

    /** Token id of a generated word (hash of its 4 chars, like any prompt chunk). */
    public static int wordId(String word) {
        return chunkId(word, 0, word.length());
    }

    /** One chat message, as serialized into the prompt text. */
    public record ChatMessage(String role, String content) {
    }

    private static int chunkId(String text, int from, int to) {
        long h = 0x2545F4914F6CDD1DL;
        for (int i = from; i < to; i++) {
            h = (h ^ text.charAt(i)) * 0x100000001B3L;
        }
        return (int) (mix(h) & 0x7fffffff);
    }

    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
