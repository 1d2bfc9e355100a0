package io.inferencegateway.config;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import io.inferencegateway.config.InferenceGatewayConfig.ModelRewrite;
import io.inferencegateway.config.InferenceGatewayConfig.RewriteMatch;
import io.inferencegateway.config.InferenceGatewayConfig.RewriteRule;

/**
 * Validates {@code spec.modelRewrites} for {@link SpecValidation} (docs/rollouts.md); a rewrite's {@code rollout} is
 * {@link RolloutValidation}'s, and checked here only against the rewrite's rules and the other rollouts.
 */
final class ModelRewriteValidation {

    private ModelRewriteValidation() {
    }

    /**
     * @param served     the models and adapters spec.schedulers serve, which targets must name
     * @param rateLimits spec.rateLimits, for the rollouts' Redis
     */
    static List<ModelRewriteConfig> modelRewrites(List<ModelRewrite> raw, Set<String> served,
            RateLimitConfig rateLimits) throws InvalidConfigException {
        if (raw == null) {
            return List.of();
        }
        List<ModelRewriteConfig> out = new ArrayList<>();
        Map<String, String> names = new HashMap<>();
        Map<String, String> candidates = new HashMap<>();
        for (int i = 0; i < raw.size(); i++) {
            String at = "spec.modelRewrites[" + i + "]";
            ModelRewriteConfig rewrite = rewrite(at, raw.get(i), served, rateLimits);
            String previous = names.putIfAbsent(rewrite.name(), at + ".name");
            if (previous != null) {
                throw new InvalidConfigException(at + ".name '" + rewrite.name() + "' duplicates " + previous);
            }
            if (rewrite.rollout() != null) {
                String other = candidates.putIfAbsent(rewrite.rollout().candidate(), at + ".rollout");
                if (other != null) {
                    throw new InvalidConfigException(at + ".rollout.candidate '" + rewrite.rollout().candidate()
                            + "' is the candidate of " + other + " too; one rollout judges a candidate");
                }
            }
            out.add(rewrite);
        }
        return out;
    }

    private static ModelRewriteConfig rewrite(String at, ModelRewrite r, Set<String> served,
            RateLimitConfig rateLimits) throws InvalidConfigException {
        if (r == null) {
            throw new InvalidConfigException(at + " must not be empty");
        }
        String name = ConfigChecks.required(r.name(), at + ".name");
        ModelRewriteConfig.ResponseModel responseModel = ModelRewriteConfig.ResponseModel.TARGET;
        if (r.responseModel() != null) {
            responseModel = ModelRewriteConfig.RESPONSE_MODELS.get(r.responseModel().strip());
            if (responseModel == null) {
                throw new InvalidConfigException(at + ".responseModel must be target or requested, got '"
                        + r.responseModel() + "'");
            }
        }
        ModelRewriteConfig.Stickiness stickiness = ModelRewriteConfig.Stickiness.SESSION;
        if (r.stickiness() != null) {
            stickiness = ModelRewriteConfig.STICKINESS.get(r.stickiness().strip());
            if (stickiness == null) {
                throw new InvalidConfigException(at + ".stickiness must be session, tenant or request, got '"
                        + r.stickiness() + "'");
            }
        }
        if (r.rules() == null || r.rules().isEmpty()) {
            throw new InvalidConfigException(at + ".rules must list at least one rule");
        }
        List<ModelRewriteConfig.RewriteRuleConfig> rules = new ArrayList<>();
        for (int k = 0; k < r.rules().size(); k++) {
            ModelRewriteConfig.RewriteRuleConfig rule = rule(at + ".rules[" + k + "]", r.rules().get(k), served);
            if (!rules.isEmpty() && rules.get(rules.size() - 1).catchAll()) {
                throw new InvalidConfigException(at + ".rules[" + k + "] is never tried: rules[" + (k - 1)
                        + "] has no matches and takes every request that reaches it");
            }
            rules.add(rule);
        }
        if (!rules.get(rules.size() - 1).catchAll()) {
            throw new InvalidConfigException(at + ".rules: every rule has matches, so a request that matches none "
                    + "would have nowhere to go; end with a rule without matches");
        }
        RolloutConfig rollout = null;
        if (r.rollout() != null) {
            RolloutConfig checked = RolloutValidation.rollout(at + ".rollout", r.rollout(), served, rateLimits);
            rollout = new RolloutConfig(name, checked.baseline(), checked.candidate(), checked.state(),
                    checked.steps(), checked.analysis(), checked.redisUrl());
            checkRollout(at, rollout, rules);
        }
        return new ModelRewriteConfig(name, responseModel, stickiness, rules, rollout);
    }

    /** A rollout moves the weight of the rule without matches from its baseline to its candidate, its only targets. */
    private static void checkRollout(String at, RolloutConfig rollout, List<ModelRewriteConfig.RewriteRuleConfig> rules)
            throws InvalidConfigException {
        int last = rules.size() - 1;
        List<String> targets = rules.get(last).targets().stream().map(ModelRewriteConfig.WeightedVersion::model).toList();
        String[] roles = {"baseline", "candidate"};
        String[] models = {rollout.baseline(), rollout.candidate()};
        for (int i = 0; i < roles.length; i++) {
            if (!targets.contains(models[i])) {
                throw new InvalidConfigException(at + ".rollout." + roles[i] + " '" + models[i] + "' is not a target "
                        + "of rules[" + last + "], the rule without matches");
            }
        }
        if (rollout.baseline().equals(rollout.candidate())) {
            throw new InvalidConfigException(at + ".rollout.candidate must differ from its baseline");
        }
        if (targets.size() != 2) {
            throw new InvalidConfigException(at + ".rules[" + last + "].targets must be the rollout's baseline and "
                    + "candidate alone, got " + targets.size() + " targets");
        }
    }

    private static ModelRewriteConfig.RewriteRuleConfig rule(String at, RewriteRule r, Set<String> served)
            throws InvalidConfigException {
        if (r == null) {
            throw new InvalidConfigException(at + " must not be empty");
        }
        List<Map<String, String>> matches = new ArrayList<>();
        if (r.matches() != null) {
            for (int m = 0; m < r.matches().size(); m++) {
                matches.add(match(at + ".matches[" + m + "]", r.matches().get(m)));
            }
        }
        if (r.targets() == null || r.targets().isEmpty()) {
            throw new InvalidConfigException(at + ".targets must list at least one target");
        }
        List<ModelRewriteConfig.WeightedVersion> targets = new ArrayList<>();
        Map<String, Integer> seen = new HashMap<>();
        int sum = 0;
        for (int t = 0; t < r.targets().size(); t++) {
            String tat = at + ".targets[" + t + "]";
            InferenceGatewayConfig.RewriteVersion target = r.targets().get(t);
            if (target == null) {
                throw new InvalidConfigException(tat + " must not be empty");
            }
            String model = ConfigChecks.required(target.model(), tat + ".model");
            if (!served.contains(model)) {
                throw new InvalidConfigException(tat + ".model '" + model + "' is not a model or adapter of "
                        + "spec.schedulers" + ConfigChecks.didYouMean(model, served));
            }
            Integer before = seen.putIfAbsent(model, t);
            if (before != null) {
                throw new InvalidConfigException(tat + ".model '" + model + "' duplicates targets[" + before + "]");
            }
            int weight;
            if (target.weight() == null) {
                if (r.targets().size() > 1) {
                    throw new InvalidConfigException(tat + ".weight is required when a rule has several targets");
                }
                weight = 100;
            } else {
                weight = target.weight();
            }
            if (weight < 1) {
                throw new InvalidConfigException(tat + ".weight must be a positive integer, got " + weight);
            }
            sum += weight;
            targets.add(new ModelRewriteConfig.WeightedVersion(model, weight));
        }
        if (sum != 100) {
            throw new InvalidConfigException(at + ".targets: weights sum to " + sum + ", not 100");
        }
        return new ModelRewriteConfig.RewriteRuleConfig(matches, targets);
    }

    /** A match's headers, by lower-case name (HTTP header names are case-insensitive). */
    private static Map<String, String> match(String at, RewriteMatch m) throws InvalidConfigException {
        if (m == null || m.headers() == null || m.headers().isEmpty()) {
            throw new InvalidConfigException(at + ".headers must name at least one header");
        }
        Map<String, String> headers = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : m.headers().entrySet()) {
            String name = ConfigChecks.required(e.getKey(), at + ".headers");
            if (e.getValue() == null) {
                throw new InvalidConfigException(at + ".headers." + name + " must have a value");
            }
            headers.put(name.toLowerCase(Locale.ROOT), e.getValue());
        }
        return headers;
    }
}
