package io.inferencegateway.lab.bench.load;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Reads what the bench needs from one OpenAI streaming chunk ({@code chat.completion.chunk}): the
 * delta content, the usage's completion tokens, or an error.
 */
final class ChunkReader {

    /** What one {@code data:} payload said. */
    record Chunk(String content, int completionTokens, String error, boolean done) {
        static final Chunk DONE = new Chunk(null, -1, null, true);

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
        JsonNode usage = root.get("usage");
        if (usage != null && usage.isObject() && usage.get("completion_tokens") != null) {
            completionTokens = usage.get("completion_tokens").asInt(-1);
        }
        return new Chunk(content, completionTokens, null, false);
    }

    static String abbreviate(String text) {
        String oneLine = text.replace('\n', ' ').replace('\r', ' ');
        return oneLine.length() <= 200 ? oneLine : oneLine.substring(0, 200) + "...";
    }
}
