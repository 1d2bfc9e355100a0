package io.inferencegateway.tokenize;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * The tokens of recently encoded pieces of prompts, so that a conversation's history, sent again with every turn, is
 * encoded once. Bounded by the tokens it holds (4 bytes each, beside the piece's text); past that the least recently
 * used pieces go. Pieces shorter than {@link #MIN_CHARS} are encoded each time: looking them up costs about what
 * encoding them does.
 *
 * <p>Thread-safe: one lock, held for a lookup or an insertion, never while encoding (two threads may encode the same
 * new piece at once; both get the same tokens).
 */
final class TokenCache {

    static final int MIN_CHARS = 64;

    private final long capacity;
    private final LinkedHashMap<String, int[]> pieces = new LinkedHashMap<>(256, 0.75f, true);
    private long held;

    /** @param capacity the most tokens held; 0 for no cache */
    TokenCache(long capacity) {
        this.capacity = capacity;
    }

    /** The tokens of {@code piece}, from the cache or from {@code encoder} (and then kept). */
    int[] tokens(String piece, Function<String, int[]> encoder) {
        if (capacity == 0 || piece.length() < MIN_CHARS) {
            return encoder.apply(piece);
        }
        synchronized (this) {
            int[] known = pieces.get(piece);
            if (known != null) {
                return known;
            }
        }
        int[] tokens = encoder.apply(piece);
        if (tokens.length <= capacity) {
            synchronized (this) {
                if (pieces.put(piece, tokens) == null) {
                    held += tokens.length;
                }
                var oldest = pieces.entrySet().iterator();
                while (held > capacity && oldest.hasNext()) {
                    Map.Entry<String, int[]> e = oldest.next();
                    held -= e.getValue().length;
                    oldest.remove();
                }
            }
        }
        return tokens;
    }

    /** How many tokens it holds now. */
    synchronized long tokens() {
        return held;
    }
}
