package io.inferencegateway.pool;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Resolves a request's {@code model} (a base model or a LoRA adapter) to the pool that serves it. */
public final class ModelPools {

    /** Where a model name leads: the pool, and the adapter when the name is one. */
    public record Resolution(ModelPool pool, String adapter) {
    }

    private final List<ModelPool> pools;
    private final Map<String, Resolution> byModel = new HashMap<>();
    private final int promptChars;

    public ModelPools(List<ModelPool> pools) {
        this.pools = List.copyOf(pools);
        int chars = 0;
        for (ModelPool pool : this.pools) {
            chars = Math.max(chars, pool.policy().promptChars());
            byModel.put(pool.config().modelName(), new Resolution(pool, null));
            for (String adapter : pool.config().loraAdapters()) {
                byModel.put(adapter, new Resolution(pool, adapter));
            }
        }
        this.promptChars = chars;
    }

    /**
     * How many of a prompt's first characters some pool's policy reads: what the request parser decodes, before it
     * knows the pool.
     */
    public int promptChars() {
        return promptChars;
    }

    /** The pool for a model or adapter name, or null when no pool serves it. */
    public Resolution resolve(String model) {
        return model == null ? null : byModel.get(model);
    }

    public List<ModelPool> pools() {
        return pools;
    }

    public ModelPool pool(String name) {
        for (ModelPool p : pools) {
            if (p.name().equals(name)) {
                return p;
            }
        }
        return null;
    }

    /** True when every pool has at least one endpoint to send to. */
    public boolean allHaveEndpoints() {
        for (ModelPool p : pools) {
            if (p.endpoints().isEmpty()) {
                return false;
            }
        }
        return true;
    }
}
