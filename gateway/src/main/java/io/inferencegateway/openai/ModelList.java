package io.inferencegateway.openai;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.inferencegateway.pool.ModelPool;
import io.inferencegateway.pool.ModelPools;

/**
 * The OpenAI {@code /v1/models} list of every served model, and {@code /v1/models/{id}} for one; adapters name their
 * base model as parent.
 */
public final class ModelList {

    private static final ObjectMapper JSON = new ObjectMapper();

    private ModelList() {
    }

    /** Who sees what: a base model (adapter null) or an adapter of it. */
    @FunctionalInterface
    public interface Visible {
        Visible ALL = (base, adapter) -> true;

        boolean test(String baseModel, String adapter);
    }

    public static byte[] json(ModelPools pools, long created) {
        return json(pools, created, Visible.ALL);
    }

    /** The list of what {@code visible} lets through (a tenant's models). */
    public static byte[] json(ModelPools pools, long created, Visible visible) {
        return json(pools, Map.of(), created, visible);
    }

    /**
     * The list of what {@code visible} lets through, with the model rewrites' names first (docs/rollouts.md): each is
     * listed, as a model of its own, when {@code visible} lets through every target it may send a request to.
     *
     * @param rewrites each rewrite's name and its target models
     */
    public static byte[] json(ModelPools pools, Map<String, List<String>> rewrites, long created, Visible visible) {
        ObjectNode root = JSON.createObjectNode();
        root.put("object", "list");
        ArrayNode data = root.putArray("data");
        Set<String> listed = new HashSet<>();
        for (Map.Entry<String, List<String>> r : new TreeMap<>(rewrites).entrySet()) {
            if (visible(pools, r.getValue(), visible)) {
                model(data, r.getKey(), created, null);
                listed.add(r.getKey());
            }
        }
        for (ModelPool pool : pools.pools()) {
            String base = pool.config().modelName();
            if (visible.test(base, null) && !listed.contains(base)) {
                model(data, base, created, null);
            }
            for (String adapter : pool.config().loraAdapters()) {
                if (visible.test(base, adapter) && !listed.contains(adapter)) {
                    model(data, adapter, created, base);
                }
            }
        }
        return bytes(root);
    }

    /** One model or adapter by its id; null when no pool serves it. */
    public static byte[] one(ModelPools pools, String id, long created) {
        return one(pools, id, created, Visible.ALL);
    }

    /**
     * One model rewrite, model or adapter by its id; null when there is none or {@code visible} hides it.
     *
     * @param rewrites each rewrite's name and its target models
     */
    public static byte[] one(ModelPools pools, Map<String, List<String>> rewrites, String id, long created,
            Visible visible) {
        List<String> targets = rewrites.get(id);
        if (targets == null) {
            return one(pools, id, created, visible);
        }
        if (!visible(pools, targets, visible)) {
            return null;
        }
        ObjectNode m = JSON.createObjectNode();
        fill(m, id, created, null);
        return bytes(m);
    }

    /** Whether {@code visible} lets through every one of {@code models}. */
    private static boolean visible(ModelPools pools, List<String> models, Visible visible) {
        for (String model : models) {
            ModelPools.Resolution t = pools.resolve(model);
            if (t == null || !visible.test(t.pool().config().modelName(), t.adapter())) {
                return false;
            }
        }
        return true;
    }

    /** One model or adapter by its id; null when no pool serves it or {@code visible} hides it. */
    public static byte[] one(ModelPools pools, String id, long created, Visible visible) {
        ModelPools.Resolution target = pools.resolve(id);
        if (target == null || !visible.test(target.pool().config().modelName(), target.adapter())) {
            return null;
        }
        ObjectNode m = JSON.createObjectNode();
        fill(m, id, created, target.adapter() == null ? null : target.pool().config().modelName());
        return bytes(m);
    }

    private static byte[] bytes(ObjectNode node) {
        try {
            return JSON.writeValueAsBytes(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void model(ArrayNode data, String id, long created, String parent) {
        fill(data.addObject(), id, created, parent);
    }

    private static void fill(ObjectNode m, String id, long created, String parent) {
        m.put("id", id);
        m.put("object", "model");
        m.put("created", created);
        m.put("owned_by", "inference-gateway");
        m.put("root", parent == null ? id : parent);
        m.put("parent", parent);
    }
}
