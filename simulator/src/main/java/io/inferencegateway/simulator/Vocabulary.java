package io.inferencegateway.simulator;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What {@code POST /detokenize} can turn back into text. {@link Tokenizer}'s ids are hashes of
 * 4-char chunks, so they cannot be inverted; the simulator remembers the chunks it handed out from
 * {@code /tokenize} (and knows every generated word). One for every pod of the process, as every replica of a
 * model shares its tokenizer: ids one pod gave out decode on any other, which a client behind a balancer needs.
 */
final class Vocabulary {

    static final Vocabulary SHARED = new Vocabulary();

    /** Forget everything past this many chunks, so a long-running pod stays bounded. */
    private static final int MAX_ENTRIES = 1 << 20;

    private final Map<Integer, String> chunks = new ConcurrentHashMap<>();

    private Vocabulary() {
        seedWords();
    }

    /** Tokenizes {@code text} as {@link Tokenizer#encode} does, remembering each token's chunk. */
    int[] tokenize(String text, String[] chunksOut) {
        int[] ids = Tokenizer.encode(text);
        if (chunks.size() + ids.length > MAX_ENTRIES) {
            synchronized (this) {
                if (chunks.size() + ids.length > MAX_ENTRIES) {
                    chunks.clear();
                    seedWords();
                }
            }
        }
        for (int t = 0; t < ids.length; t++) {
            int from = t * Tokenizer.CHARS_PER_TOKEN;
            String chunk = text.substring(from, Math.min(text.length(), from + Tokenizer.CHARS_PER_TOKEN));
            chunks.put(ids[t], chunk);
            if (chunksOut != null) {
                chunksOut[t] = chunk;
            }
        }
        return ids;
    }

    /** The chunk of a token id, or null if this pod never produced that id. */
    String chunk(int id) {
        return chunks.get(id);
    }

    private void seedWords() {
        for (String w : Tokenizer.generatedWords()) {
            chunks.put(Tokenizer.wordId(w), w);
        }
    }
}
