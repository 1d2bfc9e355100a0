package io.inferencegateway.camel;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import io.inferencegateway.config.TenantConfig;
import io.inferencegateway.openai.ModelList;
import io.inferencegateway.pool.ModelPools;
import io.inferencegateway.rollout.ModelVersions;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * {@code GET /v1/models}: every model rewrite's name, configured model and LoRA adapter, in the OpenAI list shape; with auth on, only those
 * the caller's tenant may use.
 */
public class ListModels implements Processor {

    private final Supplier<ModelPools> pools;
    private final Supplier<ModelVersions> versions;
    private final long created = System.currentTimeMillis() / 1000;

    /**
     * @param pools    the gateway's pools as they are now (a reload replaces them)
     * @param versions the model rewrites, whose names are models to a client (docs/rollouts.md)
     */
    public ListModels(Supplier<ModelPools> pools, Supplier<ModelVersions> versions) {
        this.pools = pools;
        this.versions = versions;
    }

    @Override
    public void process(Exchange exchange) {
        exchange.getMessage().setBody(ModelList.json(pools.get(), targets(versions.get()), created, visibleTo(exchange)));
        exchange.getMessage().setHeader(Exchange.CONTENT_TYPE, "application/json");
    }

    /** Each rewrite's name and the models it may send a request to. */
    static Map<String, List<String>> targets(ModelVersions versions) {
        Map<String, List<String>> out = new HashMap<>();
        versions.all().forEach((name, v) -> out.put(name, v.config().targetModels()));
        return out;
    }

    /** What the caller's tenant may see (everything while auth is off). */
    static ModelList.Visible visibleTo(Exchange exchange) {
        TenantConfig tenant = GatewayExchange.request(exchange).tenant();
        return tenant == null ? ModelList.Visible.ALL : tenant::allows;
    }
}
