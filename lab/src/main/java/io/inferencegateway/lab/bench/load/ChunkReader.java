package io.inferencegateway.lab.bench.load;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Reads what the bench needs from one OpenAI streaming chunk ({@code chat.completion.chunk}): the
 * delta content, the usage's completion and cached prompt tokens, the chunk's id, or an error.
 */
final class ChunkReader {

    /**
     * What one {@code data:} payload said.
     *
     * @param id           the completion's {@code id}; null when absent
     * @param cachedTokens the usage's {@code prompt_tokens_details.cached_tokens}; -1 when absent
     * @param model        the {@code model} the chunk names; null when absent
     */
    record Chunk(String content, int completionTokens, String error, boolean done, String id, int cachedTokens,
                 String model) {
        static final Chunk DONE = new Chunk(null, -1, null, true);

        Chunk(String content, int completionTokens, String error, boolean done) {
            this(content, completionTokens, error, done, null, -1, null);
        }

        boolean hasContent() {
            return content != null && !content.isEmpty();
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private ChunkReader() {
    }

    static Chunk read(String data) {
        if ("[DONE]".equals(data.trim())) {
            return Chunk.DONE;
        }
        JsonNode root;
        try {
            root = JSON.readTree(data);
        } catch (Exception e) {
            return new Chunk(null, -1, "chunk is not JSON: " + abbreviate(data), false);
        }
        if (root == null || !root.isObject()) {
            return new Chunk(null, -1, "chunk is not a JSON object: " + abbreviate(data), false);
        }
        JsonNode error = root.get("error");
        if (error != null && !error.isNull()) {
            JsonNode message = error.get("message");
            return new Chunk(null, -1, "error event: " + abbreviate(message != null ? message.asText() : error.toString()),
                    false);
        }
        String content = null;
        JsonNode choices = root.get("choices");
        if (choices != null && choices.isArray() && !choices.isEmpty()) {
            JsonNode text = choices.get(0).path("delta").get("content");
            if (text != null && text.isTextual()) {
                content = text.asText();
            }
        }
        int completionTokens = -1;
        int cachedTokens = -1;
        JsonNode usage = root.get("usage");
        if (usage != null && usage.isObject()) {
            if (usage.get("completion_tokens") != null) {
                completionTokens = usage.get("completion_tokens").asInt(-1);
            }
            JsonNode cached = usage.path("prompt_tokens_details").get("cached_tokens");
            if (cached != null && cached.isNumber()) {
                cachedTokens = cached.asInt();
            }
        }
        return new Chunk(content, completionTokens, null, false, text(root, "id"), cachedTokens, text(root, "model"));
    }

    private static String text(JsonNode root, String field) {
        JsonNode node = root.get(field);
        return node != null && node.isTextual() ? node.asText() : null;
    }

    static String abbreviate(String text) {
        String oneLine = text.replace('\n', ' ').replace('\r', ' ');
        return oneLine.length() <= 200 ? oneLine : oneLine.substring(0, 200) + "...";
    }
}
