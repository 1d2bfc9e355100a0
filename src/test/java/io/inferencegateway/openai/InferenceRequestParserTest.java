package io.inferencegateway.openai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.inferencegateway.domain.GatewayError;
import io.inferencegateway.domain.InferenceRequest;

class InferenceRequestParserTest {

    static Stream<Arguments> requests() {
        return Stream.of(
                Arguments.of("chat messages serialize role by role",
                        "{\"model\":\"m\",\"messages\":[{\"role\":\"system\",\"content\":\"Be brief.\"},"
                                + "{\"role\":\"user\",\"content\":\"Hi\"}]}",
                        "<|system|>\nBe brief.\n<|user|>\nHi\n", false),
                Arguments.of("content parts: text counts, images do not",
                        "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"a\"},"
                                + "{\"type\":\"image_url\",\"image_url\":{\"url\":\"x\"}},{\"type\":\"text\",\"text\":\"b\"}]}]}",
                        "<|user|>\nab\n", false),
                Arguments.of("completion prompt string, streaming",
                        "{\"stream\":true,\"prompt\":\"Once upon\",\"model\":\"m\",\"max_tokens\":5}", "Once upon", true),
                Arguments.of("completion prompt list", "{\"model\":\"m\",\"prompt\":[\"a\",\"b\"]}", "ab", false),
                Arguments.of("embedding input", "{\"model\":\"m\",\"input\":\"vector me\"}", "vector me", false),
                Arguments.of("responses: instructions lead, whatever their place in the body",
                        "{\"model\":\"m\",\"input\":\"Hi\",\"stream\":true,\"instructions\":\"Be brief.\"}",
                        "<|system|>\nBe brief.\n" + "Hi", true),
                Arguments.of("responses: input items read as chat messages, input_text parts count",
                        "{\"model\":\"m\",\"instructions\":\"Be brief.\",\"input\":[{\"role\":\"user\",\"content\":\"Hi\"},"
                                + "{\"type\":\"message\",\"role\":\"user\",\"content\":[{\"type\":\"input_text\",\"text\":\"there\"}]}]}",
                        "<|system|>\nBe brief.\n<|user|>\nHi\n<|user|>\nthere\n", false),
                Arguments.of("unknown nested fields are skipped",
                        "{\"model\":\"m\",\"tools\":[{\"function\":{\"parameters\":{\"a\":[1,{\"b\":null}]}}}],\"prompt\":\"p\"}",
                        "p", false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("requests")
    void readsModelStreamAndPrompt(String scenario, String json, String prompt, boolean stream) {
        InferenceRequest r = parse(json);
        assertThat(r.model()).isEqualTo("m");
        assertThat(r.promptText()).isEqualTo(prompt);
        assertThat(r.stream()).isEqualTo(stream);
        assertThat(r.promptTokensEstimate()).isEqualTo((prompt.length() + 3) / 4);
        assertThat(r.adapter()).isNull();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badBodies")
    void badBodiesAreBadRequests(String scenario, String json, String message) {
        assertThatThrownBy(() -> parse(json))
                .isInstanceOf(GatewayError.class)
                .hasMessageContaining(message)
                .satisfies(e -> assertThat(((GatewayError) e).reason()).isEqualTo(GatewayError.Reason.INVALID_REQUEST));
    }

    static Stream<Arguments> badBodies() {
        return Stream.of(
                Arguments.of("not JSON", "model=m", "not valid JSON"),
                Arguments.of("array", "[]", "must be a JSON object"),
                Arguments.of("no model", "{\"prompt\":\"x\"}", "provide a model"),
                Arguments.of("null model", "{\"model\":null}", "'model' must be a string"),
                Arguments.of("blank model", "{\"model\":\"  \"}", "provide a model"),
                Arguments.of("truncated", "{\"model\":\"m\",\"messages\":[{\"role\":", "not valid JSON"),
                Arguments.of("two documents", "{\"model\":\"m\"}{}", "not valid JSON"));
    }

    private static InferenceRequest parse(String json) {
        return InferenceRequestParser.parse(new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)));
    }
}
