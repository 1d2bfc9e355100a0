package io.inferencegateway.camel;

import java.io.IOException;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.inferencegateway.domain.GatewayError;
import io.inferencegateway.request.GatewayRequest;
import io.inferencegateway.tokenize.PoolTokenizers;
import io.inferencegateway.tokenize.RequestPrompt;
import io.inferencegateway.tokenize.TemplateException;
import io.netty.buffer.ByteBufInputStream;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * Counts the prompt in exact tokens when the request's pool names a tokenizer (docs/tokenization.md): the body is read
 * again as a whole (the parse before read only what routing needs) and its chat messages rendered with the model's
 * template and tokenized, so that the rate limits, the latency predictor and the session's cached history count what
 * the engine will count. A template that refuses the messages is a 400 with its message, as the engine would answer.
 * Other pools pass untouched.
 */
public class TokenizePrompt implements Processor {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final PoolTokenizers tokenizers;

    public TokenizePrompt(PoolTokenizers tokenizers) {
        this.tokenizers = tokenizers;
    }

    @Override
    public void process(Exchange exchange) throws IOException {
        GatewayRequest request = GatewayExchange.request(exchange);
        String operation = request.route() == null ? null : request.route().operation();
        boolean chat = "chat".equals(operation);
        if (request.pool() == null || !tokenizers.tokenizes(request.pool().config())
                || !chat && !"text_completion".equals(operation)) {
            return; // embeddings, rerank, audio and the rest keep the estimate
        }
        JsonNode body;
        try (ByteBufInputStream in = new ByteBufInputStream(request.body().duplicate())) {
            body = JSON.readTree(in);
        }
        try {
            RequestPrompt prompt = tokenizers.tokenize(request.pool().config(), body, chat);
            if (prompt != null) {
                request.tokenized(prompt.tokens(), prompt.historyTokens());
            }
        } catch (TemplateException e) {
            throw GatewayError.invalidRequest("messages", "The model's chat template refused the messages: "
                    + e.getMessage());
        }
    }
}
