package io.inferencegateway.rollout;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.inferencegateway.config.ModelRewriteConfig;

/**
 * The model rewrites of the config ({@code spec.modelRewrites}, docs/rollouts.md) by their client-facing names: what
 * the request path asks of every request's model, one hash lookup, before the model is resolved to its pool.
 */
public final class ModelVersions {

    /** No rewrites. */
    public static final ModelVersions NONE = new ModelVersions(Map.of());

    private final Map<String, VersionedModel> byName;

    private ModelVersions(Map<String, VersionedModel> byName) {
        this.byName = byName;
    }

    /**
     * The rewrites of a config, each keeping its callers in {@code sticky} (one table for the gateway's life, so that
     * a reload keeps the conversations where they are) and counting its choices in {@code meters}.
     */
    public static ModelVersions of(List<ModelRewriteConfig> rewrites, StickyVersions sticky, RolloutMeters meters) {
        if (rewrites.isEmpty()) {
            return NONE;
        }
        Map<String, VersionedModel> byName = new HashMap<>();
        for (ModelRewriteConfig r : rewrites) {
            byName.put(r.name(), new VersionedModel(r, sticky, meters));
        }
        return new ModelVersions(byName);
    }

    /** The rewrite {@code model} names, or null when it names none (the common case). */
    public VersionedModel rewrite(String model) {
        return byName.isEmpty() ? null : byName.get(model);
    }

    /** Every rewrite, by name. */
    public Map<String, VersionedModel> all() {
        return byName;
    }
}
