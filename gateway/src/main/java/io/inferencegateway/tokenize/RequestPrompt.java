package io.inferencegateway.tokenize;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * What of an OpenAI request body an engine tokenizes, read as the engine reads it: a chat request's {@code messages}
 * (text parts joined by a newline, a tool call's {@code arguments} given to the template as an object), {@code tools},
 * {@code add_generation_prompt} and {@code chat_template_kwargs}; a Responses request's {@code instructions} and text
 * {@code input} as system and user messages; a completion's text {@code prompt}. Anything else (images, audio, token
 * arrays, batches, embeddings) has no exact count here and keeps the estimate.
 *
 * @param tokens        the prompt's tokens
 * @param historyTokens of those, the tokens up to the end of the last assistant message (what the engine that answered
 *                      the conversation's previous turn may still cache); 0 without one
 */
public record RequestPrompt(int[] tokens, int historyTokens) {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<Map<String, Object>> OBJECT = new TypeReference<>() { };

    /**
     * The prompt of {@code body} as {@code tokenizer} tokenizes it, or null when it has no exact count here.
     *
     * @param chat whether the body is a chat or Responses request's (else a completion's)
     *
     * @throws TemplateException when the chat template refuses the messages
     */
    public static RequestPrompt of(PromptTokenizer tokenizer, JsonNode body, boolean chat) {
        if (chat) {
            List<Object> messages = messages(body);
            if (messages == null || !tokenizer.hasChatTemplate()
                    || body.path("continue_final_message").asBoolean(false)) {
                return null;
            }
            List<?> tools = body.path("tools").isArray() ? JSON.convertValue(body.get("tools"), List.class) : null;
            Map<String, Object> arguments = body.path("chat_template_kwargs").isObject()
                    ? JSON.convertValue(body.get("chat_template_kwargs"), OBJECT) : Map.of();
            boolean generation = body.path("add_generation_prompt").asBoolean(true);
            int[] tokens = tokenizer.chat(messages, tools, generation, arguments);
            int lastAssistant = lastAssistant(messages);
            int history = lastAssistant < 0 ? 0
                    : tokenizer.chat(messages.subList(0, lastAssistant + 1), tools, false, arguments).length;
            return new RequestPrompt(tokens, Math.min(history, tokens.length));
        }
        JsonNode prompt = body.path("prompt");
        return prompt.isTextual() ? new RequestPrompt(tokenizer.completion(prompt.asText()), 0) : null;
    }

    /** The chat messages of a chat or Responses body as plain maps, or null when it has none or they are not text. */
    private static List<Object> messages(JsonNode body) {
        List<Object> messages = new ArrayList<>();
        if (body.path("messages").isArray()) {
            for (JsonNode m : body.get("messages")) {
                Map<String, Object> message = message(m);
                if (message == null) {
                    return null;
                }
                messages.add(message);
            }
            return messages;
        }
        JsonNode input = body.path("input");
        if (!input.isTextual() && !input.isArray()) {
            return null;
        }
        if (body.path("instructions").isTextual()) {
            messages.add(Map.of("role", "system", "content", body.get("instructions").asText()));
        }
        if (input.isTextual()) {
            messages.add(Map.of("role", "user", "content", input.asText()));
            return messages;
        }
        for (JsonNode item : input) {
            if (!item.path("role").isTextual() || item.has("type") && !"message".equals(item.get("type").asText())) {
                return null; // function calls, their outputs and other items: not counted exactly here
            }
            Map<String, Object> message = message(item);
            if (message == null) {
                return null;
            }
            messages.add(message);
        }
        return messages;
    }

    /** One message as the template reads it, or null when its content is not text. */
    private static Map<String, Object> message(JsonNode m) {
        if (!m.isObject()) {
            return null;
        }
        Map<String, Object> message = JSON.convertValue(m, OBJECT);
        JsonNode content = m.path("content");
        if (content.isArray()) {
            StringBuilder text = new StringBuilder();
            for (JsonNode part : content) {
                JsonNode t = part.path("text");
                String type = part.path("type").asText("");
                if (!t.isTextual() || !(type.equals("text") || type.equals("input_text")
                        || type.equals("output_text"))) {
                    return null;
                }
                text.append(text.length() == 0 ? "" : "\n").append(t.asText());
            }
            message.put("content", text.toString());
        }
        JsonNode calls = m.path("tool_calls");
        if (calls.isArray()) {
            List<Object> parsed = new ArrayList<>();
            for (JsonNode call : calls) {
                ObjectNode copy = call.deepCopy();
                JsonNode arguments = call.path("function").path("arguments");
                if (arguments.isTextual() && copy.get("function") instanceof ObjectNode function) {
                    function.set("arguments", parse(arguments.asText()));
                }
                parsed.add(JSON.convertValue(copy, OBJECT));
            }
            message.put("tool_calls", parsed);
        }
        return message;
    }

    /** A tool call's arguments as the object they encode; as given when they are not JSON. */
    private static JsonNode parse(String arguments) {
        try {
            return JSON.readTree(arguments);
        } catch (JsonProcessingException e) {
            return JSON.getNodeFactory().textNode(arguments);
        }
    }

    private static int lastAssistant(List<Object> messages) {
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (messages.get(i) instanceof Map<?, ?> m && "assistant".equals(m.get("role"))) {
                return i;
            }
        }
        return -1;
    }
}
