package io.inferencegateway.domain;

/**
 * Builds a {@link ParsedBody} by naming its fields; start with {@link ParsedBody#builder(String)}. A field left unset
 * is what a body without it gives: no prompt, no stream, no {@code stream_options}, no completion budget (-1), no
 * {@code prompt_cache_key}, no {@code user}.
 */
public final class ParsedBodyBuilder {

    private String model;
    private String promptText = "";
    private int promptTokensEstimate;
    private boolean stream;
    private boolean streamOptions;
    private int maxTokens = -1;
    private String promptCacheKey;
    private String user;
    private int historyTokensEstimate;

    ParsedBodyBuilder(String model) {
        this.model = model;
    }

    /** A builder holding {@code body}'s fields, to change some of them. */
    ParsedBodyBuilder(ParsedBody body) {
        this(body.model());
        promptText = body.promptText();
        promptTokensEstimate = body.promptTokensEstimate();
        stream = body.stream();
        streamOptions = body.streamOptions();
        maxTokens = body.maxTokens();
        promptCacheKey = body.promptCacheKey();
        user = body.user();
        historyTokensEstimate = body.historyTokensEstimate();
    }

    public ParsedBodyBuilder model(String name) {
        this.model = name;
        return this;
    }

    public ParsedBodyBuilder promptText(String text) {
        this.promptText = text;
        return this;
    }

    public ParsedBodyBuilder promptTokensEstimate(int tokens) {
        this.promptTokensEstimate = tokens;
        return this;
    }

    public ParsedBodyBuilder stream(boolean streamed) {
        this.stream = streamed;
        return this;
    }

    public ParsedBodyBuilder streamOptions(boolean present) {
        this.streamOptions = present;
        return this;
    }

    /** The completion budget; -1 for none. */
    public ParsedBodyBuilder maxTokens(int tokens) {
        this.maxTokens = tokens;
        return this;
    }

    public ParsedBodyBuilder promptCacheKey(String key) {
        this.promptCacheKey = key;
        return this;
    }

    public ParsedBodyBuilder user(String endUser) {
        this.user = endUser;
        return this;
    }

    /** The prompt's tokens up to the end of its last assistant message; 0 for none. */
    public ParsedBodyBuilder historyTokensEstimate(int tokens) {
        this.historyTokensEstimate = tokens;
        return this;
    }

    public ParsedBody build() {
        return new ParsedBody(model, promptText, promptTokensEstimate, stream, streamOptions, maxTokens,
                promptCacheKey, user, historyTokensEstimate);
    }
}
