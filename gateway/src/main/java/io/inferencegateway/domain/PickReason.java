package io.inferencegateway.domain;

/** What decided a pick: the label value of the scheduler's pick counter, the access log and the fleet page. */
public enum PickReason {
    /** The chosen pod probably still caches a prefix of the prompt, and that outweighed load. */
    PREFIX_HIT("prefix_hit"),
    /** The chosen pod is the one the request's session (conversation) is kept on, or its new home (docs/sessions.md). */
    SESSION_AFFINITY("session_affinity"),
    /** The chosen pod has the requested LoRA adapter loaded. */
    LORA_RESIDENT("lora_resident"),
    /** The chosen pod had the least queue, running batch or KV-cache use. */
    LEAST_LOADED("least_loaded"),
    /** No pod had fresh metrics; the pod with the fewest requests in flight through this gateway was taken. */
    FALLBACK("fallback"),
    /** The pod first chosen could not be reached; this one was tried next. */
    FAILOVER("failover"),
    /** The chosen pod was predicted to meet the request's latency targets, or to come closest (docs/slo.md). */
    LATENCY_TARGET("latency_target"),
    /** The pool had one candidate left after filtering. */
    ONLY_CANDIDATE("only_candidate"),
    /** At a global tier, a standard request stayed in the home region, where a cluster could serve it in time. */
    HOME_REGION("home_region"),
    /** At a global tier, the target expected to give the first token soonest, round trip included (critical). */
    FASTEST_TARGET("fastest_target"),
    /** At a global tier, the target where the request costs least (sheddable and batch requests, or the cost weight). */
    CHEAPEST_TARGET("cheapest_target"),
    /** At a global tier, the target with the shortest measured round trip. */
    NEAREST_TARGET("nearest_target"),
    /** At a global tier, the target whose recent requests failed least. */
    FEWEST_ERRORS("fewest_errors"),
    /** At a global tier, an external provider: no cluster could take the request. */
    OVERFLOW("overflow"),
    /** A load-blind policy's own rule (round robin, random, least request). */
    POLICY("policy");

    private final String label;

    PickReason(String label) {
        this.label = label;
    }

    /** The snake_case name used in metrics labels and logs. */
    public String label() {
        return label;
    }
}
