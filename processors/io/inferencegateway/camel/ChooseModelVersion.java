package io.inferencegateway.camel;

import java.util.function.Supplier;

import io.inferencegateway.config.ModelRewriteConfig;
import io.inferencegateway.config.TenantConfig;
import io.inferencegateway.domain.GatewayError;
import io.inferencegateway.openai.ModelRename;
import io.inferencegateway.request.GatewayRequest;
import io.inferencegateway.rollout.ModelVersions;
import io.inferencegateway.rollout.RolloutWeights;
import io.inferencegateway.rollout.VersionedModel;
import io.netty.buffer.ByteBuf;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * Weighted model versions (docs/rollouts.md): when the body's {@code model} is a model rewrite's name, its rules pick
 * the target model, kept per conversation, tenant or request, and the body is renamed to it (the client's bytes
 * shared, not copied) before the model is resolved to its pool. Any other model costs one hash lookup.
 */
public class ChooseModelVersion implements Processor {

    private final Supplier<ModelVersions> versions;
    private final Supplier<RolloutWeights> rollouts;

    /**
     * @param versions the config's rewrites as they are now (a reload replaces them)
     * @param rollouts where each rollout stands
     */
    public ChooseModelVersion(Supplier<ModelVersions> versions, Supplier<RolloutWeights> rollouts) {
        this.versions = versions;
        this.rollouts = rollouts;
    }

    @Override
    public void process(Exchange exchange) {
        GatewayRequest request = GatewayExchange.request(exchange);
        VersionedModel rewrite = versions.get().rewrite(request.model());
        if (rewrite == null) {
            return;
        }
        ModelRewriteConfig config = rewrite.config();
        String contentType = exchange.getMessage().getHeader(Exchange.CONTENT_TYPE, String.class);
        if (!ParseInferenceRequest.isMime(contentType, "application/json")) {
            throw GatewayError.invalidRequest("model", "The model '" + config.name()
                    + "' is served by versions, which a JSON body can ask for; a form upload must name one of "
                    + config.targetModels());
        }
        TenantConfig tenant = request.tenant();
        String target = rewrite.choose(request.parsedBody(), request.headers()::get,
                tenant == null ? null : tenant.name(), rollouts.get());
        ByteBuf renamed = ModelRename.renamed(request.body(), target);
        request.rewritten(config.name(), target, renamed,
                config.responseModel() == ModelRewriteConfig.ResponseModel.REQUESTED ? config.name() : null);
        exchange.getMessage().setBody(renamed);
    }
}
