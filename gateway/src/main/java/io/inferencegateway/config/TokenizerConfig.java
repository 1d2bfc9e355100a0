package io.inferencegateway.config;

import java.nio.file.Path;

/**
 * A pool's model tokenizer (docs/tokenization.md): the directory of its {@code tokenizer.json} and
 * {@code tokenizer_config.json} (the model's own directory, or a mounted ConfigMap), and how many tokens of prompt
 * pieces it keeps so that a conversation's history is tokenized once.
 */
public record TokenizerConfig(Path path, long cacheTokens) {

    /** About 8 MiB of token ids, beside the pieces' text. */
    public static final long DEFAULT_CACHE_TOKENS = 2_000_000;
}
