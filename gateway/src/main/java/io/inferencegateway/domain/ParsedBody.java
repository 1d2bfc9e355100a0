package io.inferencegateway.domain;

/**
 * What an inference request's body says, read once when the request arrives (openai/InferenceRequestParser.java) and
 * held by the request from then on. The steps before admission read it (a model rewrite's sticky key, the rate
 * limits' cost) and the request's record keeps it for its listeners; at admission the request is classified and its
 * {@link InferenceRequest} built from it. Build one with {@link #builder(String)}.
 *
 * @param model                the body's {@code model}, as the client named it: a base model, a LoRA adapter or a
 *                             model rewrite's name
 * @param promptText           the prompt as text (chat messages serialized role by role), for prefix affinity; empty
 *                             for embeddings of token arrays
 * @param promptTokensEstimate a cheap estimate (about 4 characters a token), or the exact count when the request's pool
 *                             has a tokenizer ({@link #tokenized})
 * @param stream               whether the client asked for an SSE stream
 * @param streamOptions        whether the body carries a {@code stream_options} object of the client's own
 * @param maxTokens            the body's completion budget ({@code max_tokens} or its newer names), or -1 if unset
 * @param promptCacheKey       the body's {@code prompt_cache_key} (OpenAI's name for a conversation's cache bucket),
 *                             or null
 * @param user                 the body's {@code user} (the end user), or null
 * @param historyTokensEstimate the prompt's estimated tokens up to the end of its last assistant message: what the
 *                             engine that answered the conversation's previous turn probably still caches; 0 when
 *                             the prompt has no assistant message
 */
public record ParsedBody(String model, String promptText, int promptTokensEstimate, boolean stream,
        boolean streamOptions, int maxTokens, String promptCacheKey, String user, int historyTokensEstimate) {

    public ParsedBody {
        promptText = promptText == null ? "" : promptText;
    }

    /**
     * This body with its prompt counted exactly by the pool's tokenizer (docs/tokenization.md): {@code promptTokens} in
     * place of the estimate, and {@code historyTokens} of them up to the end of its last assistant message.
     */
    public ParsedBody tokenized(int promptTokens, int historyTokens) {
        return new ParsedBodyBuilder(this).promptTokensEstimate(promptTokens).historyTokensEstimate(historyTokens)
                .build();
    }

    /** A builder for a body naming {@code model}: no prompt, not streamed, no budget, no session keys. */
    public static ParsedBodyBuilder builder(String model) {
        return new ParsedBodyBuilder(model);
    }
}
