package io.inferencegateway.domain;

/**
 * Builds an {@link InferenceRequest} by naming its fields: from its parsed body on the request path
 * ({@link InferenceRequest#builder(ParsedBody)}, the classifiers then naming what they decide), from a model name
 * elsewhere ({@link InferenceRequest#builder(String)}, the body's facts named here too), or from another request
 * ({@link InferenceRequest#toBuilder()}). A field left unset: no adapter, {@link Priority#STANDARD}, no targets,
 * {@link Residency#ANY}, no session, no fairness key.
 */
public final class InferenceRequestBuilder {

    private ParsedBody body; // the body as given, while none of its facts is named here
    private ParsedBodyBuilder bodyFacts; // its facts as named here, or null
    private String model;
    private String adapter;
    private int priority = Priority.STANDARD;
    private LatencyTargets targets = LatencyTargets.NONE;
    private Residency residency = Residency.ANY;
    private String session;
    private String fairnessKey;

    InferenceRequestBuilder(String model) {
        this.bodyFacts = ParsedBody.builder(model);
        this.model = model;
    }

    InferenceRequestBuilder(ParsedBody body) {
        this.body = body;
        this.model = body.model();
    }

    InferenceRequestBuilder(InferenceRequest request) {
        this.body = request.body();
        this.model = request.model();
        this.adapter = request.adapter();
        this.priority = request.priority();
        this.targets = request.targets();
        this.residency = request.residency();
        this.session = request.session();
        this.fairnessKey = request.fairnessKey();
    }

    // ---- what the gateway decides ---------------------------------------------------------------

    /** The model it is served as (a model rewrite's target, or the body's own). */
    public InferenceRequestBuilder model(String name) {
        this.model = name;
        return this;
    }

    /** The LoRA adapter it names, or null for the base model. */
    public InferenceRequestBuilder adapter(String name) {
        this.adapter = name;
        return this;
    }

    public InferenceRequestBuilder priority(int p) {
        this.priority = p;
        return this;
    }

    public InferenceRequestBuilder targets(LatencyTargets latency) {
        this.targets = latency;
        return this;
    }

    public InferenceRequestBuilder residency(Residency where) {
        this.residency = where;
        return this;
    }

    /** The conversation it belongs to, or null for none. */
    public InferenceRequestBuilder session(String key) {
        this.session = key;
        return this;
    }

    public InferenceRequestBuilder fairnessKey(String key) {
        this.fairnessKey = key;
        return this;
    }

    // ---- what its body says ---------------------------------------------------------------------

    public InferenceRequestBuilder promptText(String text) {
        facts().promptText(text);
        return this;
    }

    public InferenceRequestBuilder promptTokensEstimate(int tokens) {
        facts().promptTokensEstimate(tokens);
        return this;
    }

    public InferenceRequestBuilder historyTokensEstimate(int tokens) {
        facts().historyTokensEstimate(tokens);
        return this;
    }

    public InferenceRequestBuilder stream(boolean streamed) {
        facts().stream(streamed);
        return this;
    }

    public InferenceRequestBuilder streamOptions(boolean present) {
        facts().streamOptions(present);
        return this;
    }

    /** The completion budget; -1 for none. */
    public InferenceRequestBuilder maxTokens(int tokens) {
        facts().maxTokens(tokens);
        return this;
    }

    public InferenceRequestBuilder promptCacheKey(String key) {
        facts().promptCacheKey(key);
        return this;
    }

    public InferenceRequestBuilder user(String endUser) {
        facts().user(endUser);
        return this;
    }

    private ParsedBodyBuilder facts() {
        if (bodyFacts == null) {
            bodyFacts = new ParsedBodyBuilder(body);
            body = null;
        }
        return bodyFacts;
    }

    public InferenceRequest build() {
        ParsedBody b = bodyFacts != null ? bodyFacts.build() : body;
        return new InferenceRequest(b, model, adapter, priority, targets, residency, session, fairnessKey);
    }
}
