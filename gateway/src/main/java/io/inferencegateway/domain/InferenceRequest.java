package io.inferencegateway.domain;

/**
 * What the scheduler needs to know about one inference request: what its body says ({@link ParsedBody}) and what the
 * gateway decided about it when it classified it at admission: the model it is served as, its adapter, priority,
 * latency targets, residency, session and fairness key. Built once per request, by
 * {@link InferenceRequestBuilder} (request/RequestClassification.java on the request path; {@link #builder(String)}
 * elsewhere), and immutable: the flow control, the policy's filters and scorers and the record all read the same one.
 *
 * <p>A request that is genuinely another one is built anew from it with {@link #toBuilder()}: a shadow copy for the
 * candidate model (docs/shadow.md), and a request leaving the pool's queue with its TTFT target less its wait.
 */
public final class InferenceRequest {

    /** Characters per token in the estimate: roughly four, as the prefix index's blocks assume (docs/scheduling.md). */
    public static final int CHARS_PER_TOKEN = 4;

    private final ParsedBody body;
    private final String model;
    private final String adapter;
    private final int priority;
    private final LatencyTargets targets;
    private final Residency residency;
    private final String session;
    private final String fairnessKey;

    InferenceRequest(ParsedBody body, String model, String adapter, int priority, LatencyTargets targets,
            Residency residency, String session, String fairnessKey) {
        this.body = body;
        this.model = model;
        this.adapter = adapter;
        this.priority = priority;
        this.targets = targets == null ? LatencyTargets.NONE : targets;
        this.residency = residency == null ? Residency.ANY : residency;
        this.session = session;
        this.fairnessKey = fairnessKey;
    }

    /**
     * A builder for a request for {@code model} whose body says only that: no prompt, not streamed, no budget; of
     * standard priority, without targets, residency, session or fairness key until named.
     */
    public static InferenceRequestBuilder builder(String model) {
        return new InferenceRequestBuilder(model);
    }

    /** A builder for the request whose body is {@code body}, for the model the body names until told another. */
    public static InferenceRequestBuilder builder(ParsedBody body) {
        return new InferenceRequestBuilder(body);
    }

    /** A builder holding this request's fields, for a request that is another one: change what differs. */
    public InferenceRequestBuilder toBuilder() {
        return new InferenceRequestBuilder(this);
    }

    /** What the body says, as parsed. */
    public ParsedBody body() {
        return body;
    }

    /**
     * The model it is served as: a base model or a LoRA adapter name, the body's own or the target its model rewrite
     * chose (docs/rollouts.md).
     */
    public String model() {
        return model;
    }

    /** The LoRA adapter asked for, or null for the base model. */
    public String adapter() {
        return adapter;
    }

    /** The prompt as text (chat messages serialized role by role), for prefix affinity; may be empty. */
    public String promptText() {
        return body.promptText();
    }

    /** A cheap estimate of the prompt's tokens (about 4 characters a token). */
    public int promptTokensEstimate() {
        return body.promptTokensEstimate();
    }

    /**
     * The estimated prompt tokens up to the end of its last assistant message, what the pod that answered the previous
     * turn probably caches; 0 when the prompt has none.
     */
    public int historyTokensEstimate() {
        return body.historyTokensEstimate();
    }

    /** Whether the client asked for an SSE stream. */
    public boolean stream() {
        return body.stream();
    }

    /** Whether the body carries a {@code stream_options} object of the client's own. */
    public boolean streamOptions() {
        return body.streamOptions();
    }

    /** The body's completion budget, or -1 if unset. */
    public int maxTokens() {
        return body.maxTokens();
    }

    /** How much it matters ({@link Priority}). */
    public int priority() {
        return priority;
    }

    /**
     * The latency it must be served within ({@link LatencyTargets#NONE} without targets); for a request let go by the
     * pool's queue, its targets less the time it waited.
     */
    public LatencyTargets targets() {
        return targets;
    }

    /** Where it may be served at the global tier: its tenant's regions and providers ({@link Residency#ANY}). */
    public Residency residency() {
        return residency;
    }

    /** The body's {@code prompt_cache_key}, or null. */
    public String promptCacheKey() {
        return body.promptCacheKey();
    }

    /** The body's {@code user} (the end user), or null. */
    public String user() {
        return body.user();
    }

    /**
     * The conversation it belongs to, from whichever of its body's keys or headers its pool counts
     * (docs/sessions.md); null when none.
     */
    public String session() {
        return session;
    }

    /**
     * Whose turn it is in the pool's queue among requests of its priority: its {@code x-gateway-fairness-id}, else
     * its tenant's name; null: the one shared key.
     */
    public String fairnessKey() {
        return fairnessKey;
    }

    /** Roughly four characters a token, as the prefix index's blocks assume (docs/scheduling.md). */
    public static int estimateTokens(String text) {
        return text == null ? 0 : (text.length() + CHARS_PER_TOKEN - 1) / CHARS_PER_TOKEN;
    }

    @Override
    public String toString() {
        return "InferenceRequest[model=" + model + ", adapter=" + adapter + ", promptTokensEstimate="
                + body.promptTokensEstimate() + ", stream=" + body.stream() + ", maxTokens=" + body.maxTokens()
                + ", priority=" + priority + ", targets=" + targets + ", residency=" + residency + ", session="
                + session + ", fairnessKey=" + fairnessKey + "]";
    }
}
