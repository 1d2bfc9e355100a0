package io.inferencegateway.camel;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.CompletableFuture;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.inferencegateway.domain.GatewayError;
import io.inferencegateway.request.GatewayRequest;
import io.inferencegateway.tokenize.PoolTokenizers;
import io.inferencegateway.tokenize.RequestPrompt;
import io.inferencegateway.tokenize.TemplateException;
import io.netty.buffer.ByteBufInputStream;
import org.apache.camel.AsyncCallback;
import org.apache.camel.Exchange;
import org.apache.camel.support.AsyncProcessorSupport;

/**
 * Counts the prompt in exact tokens when the request's pool names a tokenizer (docs/tokenization.md): the body is read
 * again as a whole (the parse before read only what routing needs), and its chat messages are rendered with the
 * model's template and tokenized on a tokenizer thread, off the event loop, so that the rate limits, the latency
 * predictor and the session's cached history count what the engine will count; the request goes on on its event loop.
 * A template that refuses the messages is a 400 with its message, as the engine would answer. Other pools, and the
 * paths that are not chat, Responses or completions, pass untouched.
 */
public class TokenizePrompt extends AsyncProcessorSupport {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final PoolTokenizers tokenizers;

    public TokenizePrompt(PoolTokenizers tokenizers) {
        this.tokenizers = tokenizers;
    }

    @Override
    public boolean process(Exchange exchange, AsyncCallback callback) {
        GatewayRequest request = GatewayExchange.request(exchange);
        String operation = request.route() == null ? null : request.route().operation();
        boolean chat = "chat".equals(operation);
        if (request.pool() == null || !tokenizers.tokenizes(request.pool().config())
                || !chat && !"text_completion".equals(operation)) {
            callback.done(true); // embeddings, rerank, audio and the rest keep the estimate
            return true;
        }
        CompletableFuture<RequestPrompt> prompt;
        try (ByteBufInputStream in = new ByteBufInputStream(request.body().duplicate())) {
            JsonNode body = JSON.readTree(in);
            prompt = tokenizers.tokenizeAsync(request.pool().config(), request.pool().endpoints(), body, chat);
        } catch (IOException e) {
            exchange.setException(new UncheckedIOException(e));
            callback.done(true);
            return true;
        }
        return EventLoopResume.afterward(prompt, exchange, callback, () -> settle(request, prompt));
    }

    private static void settle(GatewayRequest request, CompletableFuture<RequestPrompt> prompt) {
        RequestPrompt p;
        try {
            p = prompt.join();
        } catch (RuntimeException e) {
            if (e.getCause() instanceof TemplateException refusal) {
                throw GatewayError.invalidRequest("messages", "The model's chat template refused the messages: "
                        + refusal.getMessage());
            }
            throw e;
        }
        if (p != null) {
            request.tokenized(p.tokens(), p.historyTokens());
        }
    }
}
