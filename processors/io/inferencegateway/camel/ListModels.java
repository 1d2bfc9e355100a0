package io.inferencegateway.camel;

import io.inferencegateway.runtime.Gateway;
import io.inferencegateway.config.TenantConfig;
import io.inferencegateway.openai.ModelList;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * {@code GET /v1/models}: every configured model and LoRA adapter, in the OpenAI list shape; with auth on, only those
 * the caller's tenant may use.
 */
public class ListModels implements Processor {

    private final Gateway gateway;
    private final long created = System.currentTimeMillis() / 1000;

    public ListModels(Gateway gateway) {
        this.gateway = gateway;
    }

    @Override
    public void process(Exchange exchange) {
        exchange.getMessage().setBody(ModelList.json(gateway.pools(), created, visibleTo(exchange)));
        exchange.getMessage().setHeader(Exchange.CONTENT_TYPE, "application/json");
    }

    /** What the caller's tenant may see (everything while auth is off). */
    static ModelList.Visible visibleTo(Exchange exchange) {
        TenantConfig tenant = exchange.getProperty(GatewayExchange.TENANT, TenantConfig.class);
        return tenant == null ? ModelList.Visible.ALL : tenant::allows;
    }
}
