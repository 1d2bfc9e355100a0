package io.inferencegateway.domain;

/**
 * What the scheduler needs to know about one inference request, read once from its JSON body.
 *
 * @param model                 the body's {@code model}: a base model or a LoRA adapter name
 * @param adapter               the LoRA adapter asked for, or null for the base model
 * @param promptText            the prompt as text (chat messages serialized role by role), for prefix
 *                              affinity; empty for embeddings of token arrays
 * @param promptTokensEstimate  a cheap estimate (about 4 characters a token)
 * @param stream                whether the client asked for an SSE stream
 * @param streamOptions         whether the body carries a {@code stream_options} object of the client's own
 * @param maxTokens             the body's completion budget ({@code max_tokens} or its newer names), or -1 if unset
 * @param priority              how much it matters ({@link Priority}); standard until flow control resolves it
 * @param targets               the latency it must still be served within: its targets less the time it waited in the
 *                              gateway ({@link LatencyTargets#NONE} until flow control resolves them)
 * @param residency             where it may be served at the global tier: its tenant's regions and providers
 * @param promptCacheKey        the body's {@code prompt_cache_key} (OpenAI's name for a conversation's cache bucket),
 *                              or null
 * @param user                  the body's {@code user} (the end user), or null
 * @param session               the conversation the request belongs to, from whichever of those (or a header) its
 *                              pool counts (docs/sessions.md); null when none
 */
public record InferenceRequest(String model, String adapter, String promptText, int promptTokensEstimate,
        boolean stream, boolean streamOptions, int maxTokens, int priority, LatencyTargets targets,
        Residency residency, String promptCacheKey, String user, String session) {

    public InferenceRequest {
        promptText = promptText == null ? "" : promptText;
        targets = targets == null ? LatencyTargets.NONE : targets;
        residency = residency == null ? Residency.ANY : residency;
    }

    public InferenceRequest(String model, String adapter, String promptText, int promptTokensEstimate,
            boolean stream, boolean streamOptions, int maxTokens, int priority, LatencyTargets targets,
            Residency residency) {
        this(model, adapter, promptText, promptTokensEstimate, stream, streamOptions, maxTokens, priority, targets,
                residency, null, null, null);
    }

    public InferenceRequest(String model, String adapter, String promptText, int promptTokensEstimate,
            boolean stream, boolean streamOptions, int maxTokens, int priority, LatencyTargets targets) {
        this(model, adapter, promptText, promptTokensEstimate, stream, streamOptions, maxTokens, priority, targets,
                Residency.ANY);
    }

    public InferenceRequest(String model, String adapter, String promptText, int promptTokensEstimate,
            boolean stream, boolean streamOptions, int maxTokens) {
        this(model, adapter, promptText, promptTokensEstimate, stream, streamOptions, maxTokens, Priority.STANDARD,
                LatencyTargets.NONE);
    }

    public InferenceRequest(String model, String adapter, String promptText, int promptTokensEstimate,
            boolean stream, boolean streamOptions) {
        this(model, adapter, promptText, promptTokensEstimate, stream, streamOptions, -1);
    }

    public InferenceRequest(String model, String adapter, String promptText, int promptTokensEstimate,
            boolean stream) {
        this(model, adapter, promptText, promptTokensEstimate, stream, false);
    }

    /** The same request, resolved to {@code adapter}. */
    public InferenceRequest withAdapter(String adapter) {
        return new InferenceRequest(model, adapter, promptText, promptTokensEstimate, stream, streamOptions, maxTokens,
                priority, targets, residency, promptCacheKey, user, session);
    }

    /** The same request for another model (and its adapter, or null): a shadow copy's (docs/shadow.md). */
    public InferenceRequest withModel(String otherModel, String otherAdapter) {
        return new InferenceRequest(otherModel, otherAdapter, promptText, promptTokensEstimate, stream, streamOptions,
                maxTokens, priority, targets, residency, promptCacheKey, user, session);
    }

    /** The same request, for model {@code name} (a model rewrite's target). */
    public InferenceRequest withModel(String name) {
        return withModel(name, adapter);
    }

    /** The same request, with its priority and the latency it must be served within. */
    public InferenceRequest withService(int servicePriority, LatencyTargets latency) {
        return new InferenceRequest(model, adapter, promptText, promptTokensEstimate, stream, streamOptions, maxTokens,
                servicePriority, latency, residency, promptCacheKey, user, session);
    }

    /** The same request, served only where {@code where} allows. */
    public InferenceRequest withResidency(Residency where) {
        return new InferenceRequest(model, adapter, promptText, promptTokensEstimate, stream, streamOptions, maxTokens,
                priority, targets, where, promptCacheKey, user, session);
    }

    /** The same request, naming the caller's session keys from the body. */
    public InferenceRequest withSessionKeys(String cacheKey, String endUser) {
        return new InferenceRequest(model, adapter, promptText, promptTokensEstimate, stream, streamOptions, maxTokens,
                priority, targets, residency, cacheKey, endUser, session);
    }

    /** The same request, belonging to conversation {@code key} (null: none). */
    public InferenceRequest withSession(String key) {
        return new InferenceRequest(model, adapter, promptText, promptTokensEstimate, stream, streamOptions, maxTokens,
                priority, targets, residency, promptCacheKey, user, key);
    }

    /** Characters per token in the estimate: roughly four, as the prefix index's blocks assume (docs/scheduling.md). */
    public static final int CHARS_PER_TOKEN = 4;

    /** Roughly four characters a token, as the prefix index's blocks assume (docs/scheduling.md). */
    public static int estimateTokens(String text) {
        return text == null ? 0 : (text.length() + CHARS_PER_TOKEN - 1) / CHARS_PER_TOKEN;
    }
}
