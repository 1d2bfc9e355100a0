package io.inferencegateway.tokenize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Token-for-token parity with Hugging Face's own implementation: Qwen2.5's tokenizer and chat template, and the ids
 * that {@code @huggingface/transformers} (its tokenizers and Jinja in JavaScript) gives for the same requests, saved in
 * {@code tokenizers/qwen2.5/reference.json} (made by {@code tools/tokenizer-reference}).
 */
public class PromptTokenizerTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path modelDir;
    static PromptTokenizer tokenizer;

    record ChatCase(String name, List<Map<String, Object>> messages, List<Object> tools,
            boolean add_generation_prompt, String text, int[] ids) {
        @Override
        public String toString() {
            return name;
        }
    }

    record TextCase(String text, int[] ids) {
        @Override
        public String toString() {
            return text.isBlank() ? "(empty)" : text.length() > 30 ? text.substring(0, 30) + "..." : text;
        }
    }

    record Reference(String reference, List<ChatCase> chat, List<TextCase> texts) {
    }

    @BeforeAll
    static void loadQwen() throws IOException {
        copyModel(modelDir);
        tokenizer = PromptTokenizer.load(modelDir, 1_000_000);
    }

    /** Qwen2.5's tokenizer files (Apache-2.0), the tokenizer gzipped in the test resources. */
    public static void copyModel(Path dir) throws IOException {
        try (InputStream gz = new GZIPInputStream(resource("tokenizer.json.gz"));
                InputStream config = resource("tokenizer_config.json")) {
            Files.copy(gz, dir.resolve("tokenizer.json"));
            Files.copy(config, dir.resolve("tokenizer_config.json"));
        }
    }

    @AfterAll
    static void close() {
        tokenizer.close();
    }

    static Reference reference() throws IOException {
        try (InputStream in = resource("reference.json")) {
            return JSON.readValue(in, new TypeReference<>() { });
        }
    }

    static Stream<Arguments> chatCases() throws IOException {
        return reference().chat().stream().map(Arguments::of);
    }

    static Stream<Arguments> textCases() throws IOException {
        return reference().texts().stream().map(Arguments::of);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("chatCases")
    void aChatRequestRendersAndTokenizesAsTheReferenceImplementationDoes(ChatCase c) {
        assertThat(tokenizer.render(c.messages(), c.tools(), c.add_generation_prompt())).isEqualTo(c.text());
        assertThat(tokenizer.chat(c.messages(), c.tools(), c.add_generation_prompt(), Map.of()))
                .containsExactly(c.ids());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("textCases")
    void aTextTokenizesAsTheReferenceImplementationDoes(TextCase c) {
        assertThat(tokenizer.encode(c.text())).containsExactly(c.ids());
    }

    @Test
    void aConversationsNextTurnReusesTheTokensOfItsHistory() throws IOException {
        ChatCase longest = reference().chat().stream().filter(c -> c.name().equals("long text")).findFirst()
                .orElseThrow();
        try (PromptTokenizer fresh = PromptTokenizer.load(modelDir, 1_000_000)) {
            int[] first = fresh.chat(longest.messages(), null, true, Map.of());
            long held = fresh.cachedTokens();
            assertThat(held).isGreaterThan(2_000);

            List<Map<String, Object>> next = new ArrayList<>(longest.messages());
            next.add(Map.of("role", "assistant", "content", "A long text indeed."));
            next.add(Map.of("role", "user", "content", "Summarize it."));
            int[] second = fresh.chat(next, null, true, Map.of());

            assertThat(Arrays.copyOf(second, first.length - 3)).containsExactly(Arrays.copyOf(first, first.length - 3));
            assertThat(fresh.cachedTokens()).as("the history is not cached twice").isEqualTo(held);
            assertThat(second).containsExactly(fresh.encode(fresh.render(next, null, true)));
        }
    }

    @Test
    void theCacheStaysWithinItsTokens() throws IOException {
        try (PromptTokenizer small = PromptTokenizer.load(modelDir, 100)) {
            for (int i = 0; i < 20; i++) {
                small.chat(List.of(Map.of("role", "user", "content", ("message number " + i + " ").repeat(20))), null,
                        true, Map.of());
            }
            assertThat(small.cachedTokens()).isBetween(1L, 100L);
        }
    }

    @Test
    void aTemplateThatRefusesTheMessagesSaysWhy() throws IOException {
        ChatTemplate strict = new ChatTemplate(
                "{% if messages[0].role != 'user' %}{{ raise_exception('Conversations must start with a user') }}"
                        + "{% endif %}{{ messages[0].content }}", Map.of());
        assertThatThrownBy(() -> strict.render(List.of(Map.of("role", "assistant", "content", "hi")), null, true,
                Map.of())).isInstanceOf(TemplateException.class)
                .hasMessageContaining("Conversations must start with a user");
    }

    @Test
    void templateArgumentsReachTheTemplate() {
        ChatTemplate thinking = new ChatTemplate(
                "{{ messages[0].content }}"
                        + "{% if enable_thinking is defined and not enable_thinking %}/no_think{% endif %}",
                Map.of());
        assertThat(thinking.render(List.of(Map.of("role", "user", "content", "hi")), null, true,
                Map.of("enable_thinking", false))).isEqualTo("hi/no_think");
    }

    private static InputStream resource(String name) {
        return PromptTokenizerTest.class.getResourceAsStream("/tokenizers/qwen2.5/" + name);
    }
}
