package io.inferencegateway.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** Checks a scheduler entry's {@code tokenizer} section. */
final class TokenizerValidation {

    /** More than this would hold most of a gateway's heap in token ids. */
    static final long MAX_CACHE_TOKENS = 100_000_000;

    private TokenizerValidation() {
    }

    /**
     * {@code at} is the section's path, e.g. {@code spec.schedulers[0].tokenizer}; {@code global} tells a pool of
     * clusters and providers, whose prompts are not tokenized (each target counts its own).
     */
    static TokenizerConfig tokenizer(String at, InferenceGatewayConfig.Tokenizer t, boolean global)
            throws InvalidConfigException {
        if (t == null) {
            return null;
        }
        if (global) {
            throw new InvalidConfigException(at + " is for a pool of pods: a global tier's clusters and providers "
                    + "count their own tokens");
        }
        String source = t.source() == null ? "files" : t.source().strip().toLowerCase(Locale.ROOT);
        if (source.equals("engine")) {
            if (t.path() != null || t.cacheTokens() != null) {
                throw new InvalidConfigException(at + ": source engine asks a pod for the tokens; path and "
                        + "cacheTokens are for source files");
            }
            return new TokenizerConfig(TokenizerConfig.TokenSource.ENGINE, null, 0);
        }
        if (!source.equals("files")) {
            throw new InvalidConfigException(at + ".source must be files or engine, got '" + t.source() + "'");
        }
        Path dir = Path.of(ConfigChecks.required(t.path(), at + ".path"));
        if (!Files.isRegularFile(dir.resolve("tokenizer.json"))) {
            throw new InvalidConfigException(at + ".path '" + dir + "' holds no tokenizer.json (the directory of the "
                    + "model's tokenizer files is expected)");
        }
        long cache = t.cacheTokens() == null ? TokenizerConfig.DEFAULT_CACHE_TOKENS : t.cacheTokens();
        if (cache < 0 || cache > MAX_CACHE_TOKENS) {
            throw new InvalidConfigException(at + ".cacheTokens must be between 0 and " + MAX_CACHE_TOKENS + ", got "
                    + cache);
        }
        return new TokenizerConfig(TokenizerConfig.TokenSource.FILES, dir, cache);
    }
}
