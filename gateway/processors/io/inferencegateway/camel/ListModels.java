package io.inferencegateway.camel;

import java.util.function.Supplier;

import io.inferencegateway.config.TenantConfig;
import io.inferencegateway.openai.ModelList;
import io.inferencegateway.pool.ModelPools;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * {@code GET /v1/models}: every configured model and LoRA adapter, in the OpenAI list shape; with auth on, only those
 * the caller's tenant may use.
 */
public class ListModels implements Processor {

    private final Supplier<ModelPools> pools;
    private final long created = System.currentTimeMillis() / 1000;

    /** @param pools the gateway's pools as they are now (a reload replaces them) */
    public ListModels(Supplier<ModelPools> pools) {
        this.pools = pools;
    }

    @Override
    public void process(Exchange exchange) {
        exchange.getMessage().setBody(ModelList.json(pools.get(), created, visibleTo(exchange)));
        exchange.getMessage().setHeader(Exchange.CONTENT_TYPE, "application/json");
    }

    /** What the caller's tenant may see (everything while auth is off). */
    static ModelList.Visible visibleTo(Exchange exchange) {
        TenantConfig tenant = GatewayExchange.request(exchange).tenant();
        return tenant == null ? ModelList.Visible.ALL : tenant::allows;
    }
}
