package io.inferencegateway.openai;

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

    public static byte[] json(ModelPools pools, long created) {
        ObjectNode root = JSON.createObjectNode();
        root.put("object", "list");
        ArrayNode data = root.putArray("data");
        for (ModelPool pool : pools.pools()) {
            String base = pool.config().modelName();
            model(data, base, created, null);
            for (String adapter : pool.config().loraAdapters()) {
                model(data, adapter, created, base);
            }
        }
        return bytes(root);
    }

    /** One model or adapter by its id; null when no pool serves it. */
    public static byte[] one(ModelPools pools, String id, long created) {
        ModelPools.Target target = pools.resolve(id);
        if (target == null) {
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
