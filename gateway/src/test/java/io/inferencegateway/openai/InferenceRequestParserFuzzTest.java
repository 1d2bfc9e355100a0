package io.inferencegateway.openai;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.Map;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.inferencegateway.domain.GatewayError;
import io.inferencegateway.domain.ParsedBody;
import io.netty.buffer.Unpooled;

/**
 * Any request body, read by the streaming parser and by Jackson's tree model: the parser either refuses it with a
 * {@link GatewayError} or finds the model, stream flag, completion budget and prompt text the tree says it holds; it
 * refuses every body that is not one JSON object. A body that is not UTF-8 is only checked to be refused or read without
 * another exception. A prompt bounded to a few characters is the whole prompt's
 * beginning. The corpus is in {@code InferenceRequestParserFuzzTestInputs/}; docs/fuzzing.md says how to fuzz.
 */
class InferenceRequestParserFuzzTest {

    private static String textOrNull(JsonNode node) {
        return node != null && node.isTextual() ? node.textValue() : null;
    }

    /** Bounds that cut the prompt short of a body's length, so that long strings take the undecoded path. */
    private static final int[] BOUNDS = {0, 3, 17};

    /** The parser's own limits: nesting 256 deep, nothing after the object; duplicate keys are left out (below). */
    private static final ObjectMapper TREE = new ObjectMapper(JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(256).build())
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build())
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    @FuzzTest(maxDuration = "3m")
    void readsWhatJacksonReads(byte[] body) {
        ParsedBody whole = parse(body, Integer.MAX_VALUE);
        if (!isUtf8(body)) {
            // whether Jackson checks a field name's UTF-8 depends on its settings and on the names it read before (seen
            // here: the tree read a bad name that the parser refused); and a value skipped unread is not decoded
            return;
        }
        JsonNode tree = tree(body);
        if (tree == null || !tree.isObject()) {
            assertThat(whole).as("a body that is not one JSON object is refused").isNull();
            return;
        }
        if (duplicateKeys) {
            return; // the tree keeps one of two values; the parser reads both in order
        }
        JsonNode model = tree.get("model");
        if (model == null || !model.isTextual() || model.textValue().isBlank()) {
            assertThat(whole).as("no model, or not a string: refused").isNull();
            return;
        }
        assertThat(whole).as("a JSON object with a model is accepted, not refused with: %s", lastRefusal).isNotNull();
        assertThat(whole.model()).isEqualTo(model.textValue());
        assertThat(whole.stream()).isEqualTo(tree.path("stream").isBoolean() && tree.get("stream").booleanValue());
        assertThat(whole.streamOptions()).isEqualTo(tree.path("stream_options").isObject());
        assertThat(whole.maxTokens()).isEqualTo(maxTokens((ObjectNode) tree));
        Prompt prompt = prompt((ObjectNode) tree);
        assertThat(whole.promptText()).isEqualTo(prompt.text());
        assertThat(whole.historyTokensEstimate()).isEqualTo((prompt.historyChars() + 3) / 4);
        assertThat(whole.promptCacheKey()).isEqualTo(textOrNull(tree.get("prompt_cache_key")));
        assertThat(whole.user()).isEqualTo(textOrNull(tree.get("user")));
        for (int bound : BOUNDS) {
            ParsedBody bounded = parse(body, bound);
            assertThat(bounded).as("bounded to %d", bound).isNotNull();
            String text = whole.promptText();
            assertThat(bounded.promptText()).as("bounded to %d", bound)
                    .isEqualTo(text.substring(0, Math.min(bound, text.length())));
            assertThat(bounded.model()).isEqualTo(whole.model());
        }
    }

    private static boolean isUtf8(byte[] body) {
        try {
            StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(body));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }

    /** Why the parser last refused a body (shown when the tree accepted it). */
    private static String lastRefusal;

    /** The parser's reading, or null when it refused the body; no other exception may escape. */
    private static ParsedBody parse(byte[] body, int promptChars) {
        try {
            return InferenceRequestParser.parse(Unpooled.wrappedBuffer(body), promptChars);
        } catch (GatewayError refused) {
            lastRefusal = refused.getMessage();
            return null;
        }
    }

    private boolean duplicateKeys;

    private JsonNode tree(byte[] body) {
        duplicateKeys = false;
        try {
            return TREE.readTree(body);
        } catch (IOException e) {
            if (e.getMessage() != null && e.getMessage().startsWith("Duplicate field")) {
                duplicateKeys = true;
                return TREE.createObjectNode();
            }
            return null;
        }
    }

    /** The last of the budget's three names that is a non-negative integer, capped at {@link Integer#MAX_VALUE}. */
    private static int maxTokens(ObjectNode request) {
        int budget = -1;
        for (Iterator<Map.Entry<String, JsonNode>> it = request.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> field = it.next();
            JsonNode v = field.getValue();
            boolean named = switch (field.getKey()) {
                case "max_tokens", "max_completion_tokens", "max_output_tokens" -> true;
                default -> false;
            };
            if (named && v.isIntegralNumber() && v.bigIntegerValue().signum() >= 0) {
                budget = v.bigIntegerValue().min(BigInteger.valueOf(Integer.MAX_VALUE)).intValue();
            }
        }
        return budget;
    }

    /** A prompt's text and its length up to the end of its last assistant message (0 without one). */
    private record Prompt(String text, int historyChars) {
    }

    /** The prompt as the simulator serializes it, written plainly over the tree. */
    private static Prompt prompt(ObjectNode request) {
        StringBuilder prompt = new StringBuilder();
        int[] history = {0};
        for (Iterator<Map.Entry<String, JsonNode>> it = request.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> field = it.next();
            JsonNode v = field.getValue();
            switch (field.getKey()) {
                case "messages" -> {
                    for (JsonNode item : v.isArray() ? v : TREE.createArrayNode()) {
                        if (item.isObject()) {
                            message(prompt, item, history);
                        }
                    }
                }
                case "prompt", "input" -> {
                    if (v.isTextual()) {
                        prompt.append(v.textValue());
                    }
                    for (JsonNode item : v.isArray() ? v : TREE.createArrayNode()) {
                        if (item.isTextual()) {
                            prompt.append(item.textValue());
                        } else if (item.isObject()) {
                            message(prompt, item, history);
                        }
                    }
                }
                default -> {
                }
            }
        }
        JsonNode instructions = request.get("instructions");
        String first = instructions != null && instructions.isTextual()
                ? "<|system|>\n" + instructions.textValue() + "\n" : "";
        return new Prompt(first + prompt, history[0] == 0 ? 0 : first.length() + history[0]);
    }

    private static void message(StringBuilder prompt, JsonNode message, int[] history) {
        JsonNode role = message.get("role");
        prompt.append("<|").append(role != null && role.isTextual() ? role.textValue() : "").append("|>\n");
        JsonNode content = message.path("content");
        if (content.isTextual()) {
            prompt.append(content.textValue());
        }
        for (JsonNode part : content.isArray() ? content : TREE.createArrayNode()) {
            JsonNode text = part.get("text");
            if (part.isObject() && text != null && text.isTextual()) {
                prompt.append(text.textValue());
            }
        }
        prompt.append('\n');
        if (role != null && role.isTextual() && role.textValue().equals("assistant")) {
            history[0] = prompt.length();
        }
    }
}
