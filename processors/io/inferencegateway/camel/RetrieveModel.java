package io.inferencegateway.camel;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;

import io.inferencegateway.domain.ModelNotFoundException;
import io.inferencegateway.openai.ModelList;
import io.inferencegateway.pool.ModelPools;
import io.inferencegateway.rollout.ModelVersions;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * {@code GET /v1/models/{id}}: one configured model or LoRA adapter in the OpenAI model shape, answered from config
 * like the list; 404 {@code model_not_found} otherwise. The id may hold slashes, plain or percent-encoded.
 */
public class RetrieveModel implements Processor {

    private final Supplier<ModelPools> pools;
    private final Supplier<ModelVersions> versions;
    private final long created = System.currentTimeMillis() / 1000;

    /**
     * @param pools    the gateway's pools as they are now (a reload replaces them)
     * @param versions the model rewrites, whose names are models to a client (docs/rollouts.md)
     */
    public RetrieveModel(Supplier<ModelPools> pools, Supplier<ModelVersions> versions) {
        this.pools = pools;
        this.versions = versions;
    }

    @Override
    public void process(Exchange exchange) {
        String raw = exchange.getMessage().getHeader("id", "", String.class);
        String id;
        try {
            id = URLDecoder.decode(raw.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException badEscape) {
            id = raw;
        }
        byte[] model = ModelList.one(pools.get(), ListModels.targets(versions.get()), id, created,
                ListModels.visibleTo(exchange));
        if (model == null) {
            throw new ModelNotFoundException(id);
        }
        exchange.getMessage().setBody(model);
        exchange.getMessage().setHeader(Exchange.CONTENT_TYPE, "application/json");
    }
}
