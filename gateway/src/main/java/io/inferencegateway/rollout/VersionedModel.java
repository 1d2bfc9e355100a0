package io.inferencegateway.rollout;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;

import io.inferencegateway.config.ModelRewriteConfig;
import io.inferencegateway.config.RolloutConfig;
import io.inferencegateway.domain.ParsedBody;
import io.micrometer.core.instrument.Counter;

/**
 * One model rewrite as the request path uses it: picks the target of a request that asked for the rewrite's name
 * (docs/rollouts.md).
 *
 * <p>The first rule whose matches hold applies. Its targets share the range [0, 100) in the order listed, each as
 * wide as its weight; with a rollout, the rule without matches puts its baseline first and its candidate last, at
 * (100 - p, p) for the rollout's current share p. A sticky caller's key is hashed into that range, the same on every
 * replica, so that raising the last target's share moves callers of the others to it and never back. A caller's
 * target is also remembered ({@link StickyVersions}) while it keeps a positive weight, so that a conversation already
 * under way keeps its version when the weights change; a caller without a key is placed at random.
 */
public final class VersionedModel {

    /** The header a caller can name its conversation by, after the body's prompt_cache_key and user. */
    public static final String SESSION_HEADER = "x-session-id";

    private final ModelRewriteConfig config;
    private final StickyVersions sticky;
    private final MatchingRule[] rules;

    VersionedModel(ModelRewriteConfig config, StickyVersions sticky, RolloutMeters meters) {
        this.config = config;
        this.sticky = sticky;
        List<ModelRewriteConfig.RewriteRuleConfig> list = config.rules();
        this.rules = new MatchingRule[list.size()];
        for (int k = 0; k < rules.length; k++) {
            boolean rolled = k == rules.length - 1 && config.rollout() != null;
            rules[k] = new MatchingRule(list.get(k), rolled ? config.rollout() : null, config.name(), meters);
        }
    }

    public ModelRewriteConfig config() {
        return config;
    }

    /**
     * The target model for one request.
     *
     * @param request the parsed body (its prompt_cache_key and user)
     * @param header  the request's headers by lower-case name (null when absent)
     * @param tenant  the caller's tenant, or null while auth is off
     * @param weights where each rollout stands
     */
    public String choose(ParsedBody request, Function<String, String> header, String tenant,
            RolloutWeights weights) {
        int k = 0;
        while (!rules[k].holds(header)) {
            k++; // the last rule has no matches and always holds
        }
        MatchingRule rule = rules[k];
        int[] w = rule.weights(weights);
        String key = stickyKey(request, header, tenant);
        int chosen;
        if (key == null) {
            chosen = rule.at(w, ThreadLocalRandom.current().nextInt(100));
        } else {
            long h = hash(config.name(), key);
            long tableKey = h + k;
            String remembered = sticky.get(tableKey);
            int kept = remembered == null ? -1 : rule.indexOf(remembered);
            if (kept >= 0 && w[kept] > 0) {
                chosen = kept;
            } else {
                chosen = rule.at(w, (int) Long.remainderUnsigned(h, 100));
                sticky.put(tableKey, rule.models[chosen]);
            }
        }
        rule.counters[chosen].increment();
        return rule.models[chosen];
    }

    /** What keeps the caller on one target, as the rewrite's stickiness says; null: nothing. */
    String stickyKey(ParsedBody request, Function<String, String> header, String tenant) {
        switch (config.stickiness()) {
            case SESSION -> {
                if (request.promptCacheKey() != null) {
                    return request.promptCacheKey();
                }
                if (request.user() != null) {
                    return request.user();
                }
                String session = header.apply(SESSION_HEADER);
                return session != null ? session : tenant;
            }
            case TENANT -> {
                return tenant;
            }
            default -> {
                return null;
            }
        }
    }

    /**
     * A 64-bit hash of the rewrite's name and a caller's key, the same in every process (FNV-1a over the characters,
     * then MurmurHash3's finalizer to spread the bits).
     */
    static long hash(String name, String key) {
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < name.length(); i++) {
            h = (h ^ name.charAt(i)) * 0x100000001b3L;
        }
        h = (h ^ 0xffff) * 0x100000001b3L; // no character: name and key cannot run into each other
        for (int i = 0; i < key.length(); i++) {
            h = (h ^ key.charAt(i)) * 0x100000001b3L;
        }
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h;
    }

    /** A rule compiled for the request path: matches, targets in range order, their counters. */
    private static final class MatchingRule {
        private final List<Map<String, String>> matches;
        private final String[] models;
        private final int[] weights;
        private final Counter[] counters;
        private final RolloutConfig rollout; // null, or the rollout whose baseline is models[0], candidate the last

        MatchingRule(ModelRewriteConfig.RewriteRuleConfig rule, RolloutConfig rollout, String rewrite, RolloutMeters meters) {
            this.matches = rule.matches();
            this.rollout = rollout;
            List<ModelRewriteConfig.WeightedVersion> targets = rule.targets();
            if (rollout != null) { // validation: exactly the baseline and the candidate
                targets = List.of(new ModelRewriteConfig.WeightedVersion(rollout.baseline(), 0),
                        new ModelRewriteConfig.WeightedVersion(rollout.candidate(), 0));
            }
            int n = targets.size();
            models = new String[n];
            weights = new int[n];
            counters = new Counter[n];
            for (int i = 0; i < n; i++) {
                models[i] = targets.get(i).model();
                weights[i] = targets.get(i).weight();
                counters[i] = meters.versionRequests(rewrite, models[i]);
            }
        }

        boolean holds(Function<String, String> header) {
            if (matches.isEmpty()) {
                return true;
            }
            for (Map<String, String> match : matches) {
                boolean all = true;
                for (Map.Entry<String, String> h : match.entrySet()) {
                    if (!h.getValue().equals(header.apply(h.getKey()))) {
                        all = false;
                        break;
                    }
                }
                if (all) {
                    return true;
                }
            }
            return false;
        }

        /** The weights now: a rollout's (100 - p, p), else the configured ones. */
        int[] weights(RolloutWeights now) {
            if (rollout == null) {
                return weights;
            }
            int p = Math.max(0, Math.min(100, now.candidatePercent(rollout)));
            return new int[] {100 - p, p};
        }

        /** The target whose range holds {@code bucket} (0..99). */
        int at(int[] w, int bucket) {
            int upTo = 0;
            for (int i = 0; i < w.length; i++) {
                upTo += w[i];
                if (bucket < upTo) {
                    return i;
                }
            }
            return w.length - 1;
        }

        int indexOf(String model) {
            for (int i = 0; i < models.length; i++) {
                if (models[i].equals(model)) {
                    return i;
                }
            }
            return -1;
        }
    }
}
