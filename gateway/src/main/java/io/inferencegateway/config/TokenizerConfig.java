package io.inferencegateway.config;

import java.nio.file.Path;

/**
 * A pool's prompt tokenizer (docs/tokenization.md): the model's own files, or its engine asked.
 *
 * @param source      where the tokens come from
 * @param path        with {@link TokenSource#FILES}, the directory of the model's {@code tokenizer.json} and
 *                    {@code tokenizer_config.json} (the model's own directory, or a mounted volume); else null
 * @param cacheTokens with {@link TokenSource#FILES}, how many tokens of prompt pieces are kept so that a conversation's
 *                    history is tokenized once
 */
public record TokenizerConfig(TokenSource source, Path path, long cacheTokens) {

    /** About 8 MiB of token ids, beside the pieces' text. */
    public static final long DEFAULT_CACHE_TOKENS = 2_000_000;

    /** Where a pool's prompt tokens come from. */
    public enum TokenSource {
        /** The model's tokenizer files, run in the gateway. */
        FILES,
        /** A pod of the pool, asked with {@code POST /tokenize} (vLLM, SGLang) for each request. */
        ENGINE
    }
}
