package io.inferencegateway.tokenize;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.inferencegateway.domain.Endpoint;

/**
 * A pool's prompts tokenized by its engine: {@code POST /tokenize} (vLLM's, which SGLang serves too) on a pod of the
 * pool, with the request's messages, tools, {@code add_generation_prompt} and {@code chat_template_kwargs}, or its text
 * prompt; and, for a conversation, a second call at once for its history up to the last assistant message. The engine
 * renders its own template with its own tokenizer, so nothing of the model is needed in the gateway; each request costs
 * one or two round trips to a pod before it is sent. A pod that does not answer 200 within {@link #TIMEOUT} leaves the
 * request its estimate.
 */
final class EngineTokenizer {

    static final Duration TIMEOUT = Duration.ofSeconds(2);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> CHAT_FIELDS = List.of("messages", "tools", "add_generation_prompt",
            "chat_template_kwargs", "continue_final_message");

    private final HttpClient http;

    /** @param executor where the client's responses are handled */
    EngineTokenizer(Executor executor) {
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(TIMEOUT)
                .executor(executor).build();
    }

    /**
     * The prompt of {@code body} as the engine on {@code pod} tokenizes it; completes with null when the body has no
     * text prompt or messages, or the engine does not answer.
     */
    CompletableFuture<RequestPrompt> tokenize(Endpoint pod, JsonNode body, boolean chat) {
        ObjectNode ask = JSON.createObjectNode();
        ask.set("model", body.path("model"));
        if (chat && body.path("messages").isArray()) {
            for (String field : CHAT_FIELDS) {
                if (body.has(field)) {
                    ask.set(field, body.get(field));
                }
            }
            ask.put("add_special_tokens", false);
        } else if (!chat && body.path("prompt").isTextual()) {
            ask.set("prompt", body.get("prompt"));
            ask.put("add_special_tokens", true);
        } else {
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<int[]> prompt = call(pod, ask);
        ObjectNode history = chat ? history(ask) : null;
        CompletableFuture<int[]> before = history == null ? CompletableFuture.completedFuture(new int[0])
                : call(pod, history);
        return prompt.thenCombine(before, (tokens, earlier) -> tokens == null ? null
                : new RequestPrompt(tokens, earlier == null ? 0 : Math.min(earlier.length, tokens.length)));
    }

    /** The same call for the messages up to the last assistant one, or null when there is none. */
    private static ObjectNode history(ObjectNode ask) {
        ArrayNode messages = (ArrayNode) ask.get("messages");
        for (int i = messages.size() - 1; i >= 0; i--) {
            if ("assistant".equals(messages.get(i).path("role").asText())) {
                ObjectNode h = ask.deepCopy();
                ArrayNode kept = h.putArray("messages");
                for (int j = 0; j <= i; j++) {
                    kept.add(messages.get(j));
                }
                h.put("add_generation_prompt", false);
                h.remove("continue_final_message");
                return h;
            }
        }
        return null;
    }

    /** The {@code tokens} the engine answers, or null. */
    private CompletableFuture<int[]> call(Endpoint pod, ObjectNode ask) {
        byte[] payload;
        try {
            payload = JSON.writeValueAsBytes(ask);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        URI uri = URI.create("http://" + pod.host() + ":" + pod.port() + "/tokenize");
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(TIMEOUT).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(payload)).build();
        return http.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray())
                .thenApply(EngineTokenizer::tokens)
                .exceptionally(e -> null);
    }

    private static int[] tokens(HttpResponse<byte[]> response) {
        if (response.statusCode() != 200) {
            return null;
        }
        try {
            JsonNode tokens = JSON.readTree(response.body()).path("tokens");
            if (!tokens.isArray()) {
                return null;
            }
            int[] ids = new int[tokens.size()];
            for (int i = 0; i < ids.length; i++) {
                ids[i] = tokens.get(i).asInt();
            }
            return ids;
        } catch (IOException e) {
            return null;
        }
    }
}
