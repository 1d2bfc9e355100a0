package io.inferencegateway.tokenize;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.djl.huggingface.tokenizers.jni.TokenizersLibrary;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * A model's prompts tokenized as its engine tokenizes them: the chat template of its {@code tokenizer_config.json}
 * rendered for the messages, and the text encoded by Hugging Face's tokenizers library with the model's
 * {@code tokenizer.json} (any model that library loads: BPE, WordPiece, Unigram, WordLevel), without adding special
 * tokens, as vLLM and SGLang encode a rendered chat prompt.
 *
 * <p>Conversations send their history again with every turn, so the text is cut at the tokenizer's special tokens
 * (which the library itself splits on before anything else, so that the pieces encode independently) and each piece's
 * tokens are kept in a {@link TokenCache}: a new turn costs its new messages. A tokenizer whose pieces do not encode
 * independently (a check at load, for instance a SentencePiece one that adds a space only at the very start) encodes
 * the whole text each time.
 *
 * <p>Thread-safe. {@link #close()} frees the native tokenizer.
 */
public final class PromptTokenizer implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HuggingFaceTokenizer tokenizer;
    private final ChatTemplate template;
    private final SpecialTokens special;
    private final TokenCache cache;

    private PromptTokenizer(HuggingFaceTokenizer tokenizer, ChatTemplate template, SpecialTokens special,
            TokenCache cache) {
        this.tokenizer = tokenizer;
        this.template = template;
        this.special = special;
        this.cache = cache;
    }

    /**
     * Loads the tokenizer of the model directory {@code dir}: its {@code tokenizer.json} and, when present, its
     * {@code tokenizer_config.json} (the chat template and the special tokens a template names).
     *
     * @param cacheTokens how many tokens the cache of pieces may hold; 0 for none
     * @throws IOException when the files cannot be read or the library refuses them
     */
    public static PromptTokenizer load(Path dir, long cacheTokens) throws IOException {
        Path tokenizerJson = dir.resolve("tokenizer.json");
        JsonNode definition = JSON.readTree(tokenizerJson.toFile());
        Path configFile = dir.resolve("tokenizer_config.json");
        JsonNode config = Files.exists(configFile) ? JSON.readTree(configFile.toFile()) : JSON.createObjectNode();
        HuggingFaceTokenizer library;
        try (InputStream in = Files.newInputStream(tokenizerJson)) {
            library = HuggingFaceTokenizer.newInstance(in, Map.of(
                    "addSpecialTokens", "false", "truncation", "false", "padding", "false"));
        } catch (RuntimeException e) {
            throw new IOException("The tokenizers library refused " + tokenizerJson + ": " + e.getMessage(), e);
        }
        JsonNode chatTemplate = config.path("chat_template");
        ChatTemplate template = chatTemplate.isTextual()
                ? new ChatTemplate(chatTemplate.asText(), templateTokens(config)) : null;
        SpecialTokens special = SpecialTokens.of(definition);
        PromptTokenizer answer = new PromptTokenizer(library, template, special, new TokenCache(cacheTokens));
        if (!answer.piecesEncodeIndependently()) {
            answer = new PromptTokenizer(library, template, SpecialTokens.NONE, answer.cache);
        }
        return answer;
    }

    /** Whether the model has a chat template (without one, chat requests cannot be tokenized exactly). */
    public boolean hasChatTemplate() {
        return template != null;
    }

    /**
     * The tokens of a chat request's prompt.
     *
     * @param messages            the request's {@code messages}, as plain maps and lists
     * @param tools               its {@code tools}, or null
     * @param addGenerationPrompt whether the prompt ends with the assistant's turn opening (the default)
     * @param templateArguments   the request's {@code chat_template_kwargs}, or an empty map
     * @throws IllegalStateException when the model has no chat template
     * @throws TemplateException when the template refuses the messages
     */
    public int[] chat(List<?> messages, List<?> tools, boolean addGenerationPrompt,
            Map<String, Object> templateArguments) {
        return encode(render(messages, tools, addGenerationPrompt, templateArguments));
    }

    /** The chat template's text for these messages (what {@link #chat} encodes), without template arguments. */
    public String render(List<?> messages, List<?> tools, boolean addGenerationPrompt) {
        return render(messages, tools, addGenerationPrompt, Map.of());
    }

    private String render(List<?> messages, List<?> tools, boolean addGenerationPrompt,
            Map<String, Object> templateArguments) {
        if (template == null) {
            throw new IllegalStateException("The model's tokenizer_config.json has no chat_template");
        }
        return template.render(messages, tools, addGenerationPrompt, templateArguments);
    }

    /** The tokens of {@code text}, no special tokens added: as an engine encodes a rendered chat prompt. */
    public int[] encode(String text) {
        List<String> pieces = special.split(text);
        if (pieces.size() == 1) {
            return cache.tokens(text, this::library);
        }
        List<int[]> parts = new ArrayList<>(pieces.size());
        int length = 0;
        for (String piece : pieces) {
            int id = special.id(piece);
            int[] tokens = id >= 0 ? new int[] {id} : cache.tokens(piece, this::library);
            parts.add(tokens);
            length += tokens.length;
        }
        int[] all = new int[length];
        int at = 0;
        for (int[] part : parts) {
            System.arraycopy(part, 0, all, at, part.length);
            at += part.length;
        }
        return all;
    }

    /**
     * The tokens of a completion request's {@code prompt}: the text encoded with the special tokens the tokenizer adds
     * around a sequence (a beginning-of-sequence token for many models), as an engine encodes a raw prompt.
     */
    public int[] completion(String prompt) {
        return ids(prompt, true);
    }

    /** How many tokens the cache of pieces holds now. */
    public long cachedTokens() {
        return cache.tokens();
    }

    private int[] library(String text) {
        return ids(text, false);
    }

    /**
     * The library's ids for {@code text}, through its JNI calls for the ids alone: its {@code Encoding} also fetches
     * every token's text, offsets and masks, which made a call about 1.5x as long (1,575 tokens: 2.6 ms against
     * 1.75 ms on the 2-core benchmark machine).
     */
    private int[] ids(String text, boolean addSpecialTokens) {
        long encoding = TokenizersLibrary.LIB.encode(tokenizer.getHandle(), text, addSpecialTokens);
        long[] ids;
        try {
            ids = TokenizersLibrary.LIB.getTokenIds(encoding);
        } finally {
            TokenizersLibrary.LIB.deleteEncoding(encoding);
        }
        int[] tokens = new int[ids.length];
        for (int i = 0; i < ids.length; i++) {
            tokens[i] = (int) ids[i];
        }
        return tokens;
    }

    /** Whether cutting at the special tokens gives what the library gives for the whole text, on a probe. */
    private boolean piecesEncodeIndependently() {
        if (special == SpecialTokens.NONE) {
            return true;
        }
        StringBuilder probe = new StringBuilder("Hello there, naïve 日本 world.");
        for (String token : special.texts()) {
            probe.append(token).append(" a probe line\n  with spaces ").append(token).append("x\n");
        }
        String text = probe.toString();
        return Arrays.equals(encode(text), library(text));
    }

    /** The names a template may read beside the messages: {@code bos_token}, {@code eos_token} and their kind. */
    private static Map<String, String> templateTokens(JsonNode config) {
        Map<String, String> tokens = new HashMap<>();
        config.fields().forEachRemaining(e -> {
            if (e.getKey().endsWith("_token")) {
                JsonNode v = e.getValue();
                String text = v.isTextual() ? v.asText() : v.path("content").isTextual() ? v.path("content").asText()
                        : null;
                if (text != null) {
                    tokens.put(e.getKey(), text);
                }
            }
        });
        return tokens;
    }

    @Override
    public void close() {
        tokenizer.close();
    }
}
