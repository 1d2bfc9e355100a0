package io.inferencegateway.config;

import java.util.List;
import java.util.Map;

/**
 * A validated model rewrite ({@code spec.modelRewrites[]}, docs/rollouts.md): the model name {@code name} clients ask
 * for, served by the targets of the first rule whose matches hold, chosen by weight and kept per caller.
 *
 * @param name          the client-facing model name
 * @param responseModel what the response's {@code model} names
 * @param stickiness    what keeps a caller on one target
 * @param rules         tried in order; the last has no matches (validation sees to it)
 * @param rollout       the automatic canary of the rule without matches, or null
 */
public record ModelRewriteConfig(String name, ResponseModel responseModel, Stickiness stickiness,
        List<RewriteRuleConfig> rules,
        RolloutConfig rollout) {

    public ModelRewriteConfig {
        rules = List.copyOf(rules);
    }

    /** What the response's {@code model} names. */
    public enum ResponseModel {
        /** The target that served the request, as its model server wrote it (the response is left as it is). */
        TARGET,
        /** The name the client asked for, this rewrite's. */
        REQUESTED
    }

    /** What keeps a caller on one target while the weights stay. */
    public enum Stickiness {
        /** The conversation (prompt_cache_key, user, x-session-id), else the tenant, else nothing. */
        SESSION,
        /** The tenant, else nothing. */
        TENANT,
        /** Nothing: each request is chosen afresh. */
        REQUEST
    }

    /**
     * Targets chosen by weight when any of {@code matches} holds (each a map of lower-case header names to the values
     * they must have); no matches: always.
     */
    public record RewriteRuleConfig(List<Map<String, String>> matches, List<WeightedVersion> targets) {

        public RewriteRuleConfig {
            matches = List.copyOf(matches);
            targets = List.copyOf(targets);
        }

        /** Whether the rule takes every request that reaches it. */
        public boolean catchAll() {
            return matches.isEmpty();
        }
    }

    /** A served model or adapter and its share of its rule's requests in percent. */
    public record WeightedVersion(String model, int weight) {
    }

    /** The rule without matches, which a rollout moves the weights of. */
    public RewriteRuleConfig catchAll() {
        return rules.get(rules.size() - 1);
    }

    /** The models this rewrite may send requests to, each once. */
    public List<String> targetModels() {
        return rules.stream().flatMap(r -> r.targets().stream()).map(WeightedVersion::model).distinct().toList();
    }

    /** The validated form of a rewrite's response model or stickiness names these. */
    static final Map<String, ResponseModel> RESPONSE_MODELS = Map.of("target", ResponseModel.TARGET, "requested",
            ResponseModel.REQUESTED);
    static final Map<String, Stickiness> STICKINESS = Map.of("session", Stickiness.SESSION, "tenant",
            Stickiness.TENANT, "request", Stickiness.REQUEST);
}
