package io.inferencegateway.openai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.inferencegateway.domain.GatewayError;
import io.inferencegateway.domain.ParsedBody;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

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
        ParsedBody r = parse(json);
        assertThat(r.model()).isEqualTo("m");
        assertThat(r.promptText()).isEqualTo(prompt);
        assertThat(r.stream()).isEqualTo(stream);
        assertThat(r.promptTokensEstimate()).isEqualTo((prompt.length() + 3) / 4);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badBodies")
    void badBodiesAreBadRequests(String scenario, String json, String message) {
        assertThatThrownBy(() -> parse(json))
                .isInstanceOf(GatewayError.class)
                .hasMessageContaining(message)
                .satisfies(e -> assertThat(((GatewayError) e).reason()).isEqualTo(GatewayError.Reason.INVALID_REQUEST));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("nestedValuesWhereScalarsGo")
    void anObjectOrArrayWhereAScalarGoesIsSkippedWhole(String scenario, String json) {
        // found by InferenceRequestParserFuzzTest: the nested value's fields were read as the request's own
        ParsedBody r = parse(json);
        assertThat(r.model()).isEqualTo("m");
        assertThat(r.stream()).isFalse();
        assertThat(r.maxTokens()).isEqualTo(-1);
        assertThat(r.promptText()).isEqualTo("p");
    }

    @Test
    void aBudgetPastALongsRangeIsCappedNotRefused() {
        // found by InferenceRequestParserFuzzTest: it was refused as "not valid JSON"
        String huge = "9".repeat(40);
        assertThat(parse("{\"model\":\"m\",\"max_tokens\":" + huge + "}").maxTokens()).isEqualTo(Integer.MAX_VALUE);
        assertThat(parse("{\"model\":\"m\",\"max_tokens\":-" + huge + "}").maxTokens()).isEqualTo(-1);
    }

    @Test
    void readsTheKeysThatNameAConversation() {
        ParsedBody r = parse("{\"model\":\"m\",\"prompt_cache_key\":\"conv-7\",\"user\":\"alice\",\"prompt\":\"p\"}");
        assertThat(r.promptCacheKey()).isEqualTo("conv-7");
        assertThat(r.user()).isEqualTo("alice");
        ParsedBody none = parse("{\"model\":\"m\",\"prompt_cache_key\":7,\"user\":{\"id\":\"alice\"}}");
        assertThat(none.promptCacheKey()).isNull();
        assertThat(none.user()).isNull();
    }

    @Test
    void theHistoryIsThePromptUpToItsLastAnswer() {
        String system = "<|system|>\nBe brief.\n";
        String answered = system + "<|user|>\nHi\n<|assistant|>\nHello, how can I help?\n";
        ParsedBody second = parse("{\"model\":\"m\",\"messages\":[{\"role\":\"system\",\"content\":\"Be brief.\"},"
                + "{\"role\":\"user\",\"content\":\"Hi\"},{\"role\":\"assistant\",\"content\":\"Hello, how can I help?\"},"
                + "{\"role\":\"user\",\"content\":\"Tell me a long story about the sea, please.\"}]}");
        assertThat(second.promptText()).startsWith(answered);
        assertThat(second.historyTokensEstimate()).isEqualTo((answered.length() + 3) / 4)
                .isLessThan(second.promptTokensEstimate());

        assertThat(parse("{\"model\":\"m\",\"messages\":[{\"role\":\"system\",\"content\":\"Be brief.\"},"
                + "{\"role\":\"user\",\"content\":\"Hi\"}]}").historyTokensEstimate()).as("a first turn").isZero();
        ParsedBody responses = parse("{\"model\":\"m\",\"input\":[{\"role\":\"user\",\"content\":\"Hi\"},"
                + "{\"role\":\"assistant\",\"content\":\"Hello, how can I help?\"},{\"role\":\"user\",\"content\":\"More\"}],"
                + "\"instructions\":\"Be brief.\"}");
        assertThat(responses.historyTokensEstimate()).as("instructions first, then the items")
                .isEqualTo((answered.length() + 3) / 4);
    }

    @Test
    void aMessageAfterAnItemThatIsNoMessageStillCounts() {
        // found by InferenceRequestParserFuzzTest: every message after the first item that was no object was dropped
        assertThat(parse("{\"model\":\"m\",\"messages\":[\"x\",{\"role\":\"user\",\"content\":\"Hi\"},7]}").promptText())
                .isEqualTo("<|user|>\nHi\n");
    }

    static Stream<Arguments> nestedValuesWhereScalarsGo() {
        return Stream.of(
                Arguments.of("max_output_tokens an array of messages",
                        "{\"model\":\"m\",\"max_output_tokens\":[{\"role\":\"user\"}],\"prompt\":\"p\"}"),
                Arguments.of("max_tokens an object naming another model",
                        "{\"model\":\"m\",\"max_tokens\":{\"model\":\"other\",\"stream\":true},\"prompt\":\"p\"}"),
                Arguments.of("stream an object naming another model",
                        "{\"model\":\"m\",\"stream\":{\"model\":\"other\",\"prompt\":\"q\"},\"prompt\":\"p\"}"));
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

    /** Text that exercises the decoder: ASCII, Latin-1, CJK, an emoji (a surrogate pair), quotes and backslashes. */
    private static String randomText(Random random, int length) {
        String[] pieces = {"a", "Z", " ", "é", "ß", "中", "文", "😀", "\"", "\\", "/", "\n", "\t", "\u0001", "\u2028"};
        StringBuilder sb = new StringBuilder();
        while (sb.length() < length) {
            sb.append(pieces[random.nextInt(pieces.length)]);
        }
        return sb.toString();
    }

    /** A JSON string literal of {@code s}, each character raw (UTF-8) or escaped, at random. */
    private static String literal(Random random, String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean escape = c < 0x20 || c == '"' || c == '\\' || random.nextInt(4) == 0;
            if (Character.isHighSurrogate(c)) {
                // a pair stays together: raw as one 4-byte sequence, or two escapes
                sb.append(escape ? String.format("\\u%04x\\u%04x", (int) c, (int) s.charAt(i + 1))
                        : s.substring(i, i + 2));
                i++;
            } else if (!escape) {
                sb.append(c);
            } else if (c == '"' || c == '\\') {
                sb.append('\\').append(c);
            } else if (c == '\n' && random.nextBoolean()) {
                sb.append("\\n");
            } else if (c == '/' && random.nextBoolean()) {
                sb.append("\\/");
            } else {
                sb.append(String.format("\\u%04x", (int) c));
            }
        }
        return sb.append('"').toString();
    }

    static Stream<Arguments> boundedBodies() {
        return Stream.of(
                Arguments.of("completion prompt"),
                Arguments.of("chat, content before role, content parts"),
                Arguments.of("responses, instructions after input"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("boundedBodies")
    void aBoundedPromptIsTheWholePromptsBeginning(String shape) {
        Random random = new Random(shape.hashCode());
        for (int round = 0; round < 40; round++) {
            String a = randomText(random, random.nextInt(round < 20 ? 40 : 20_000));
            String b = randomText(random, random.nextInt(round < 20 ? 40 : 20_000));
            String json;
            String expected;
            switch (shape) {
                case "completion prompt" -> {
                    json = "{\"model\":\"m\",\"prompt\":[" + literal(random, a) + " , " + literal(random, b) + "]}";
                    expected = a + b;
                }
                case "chat, content before role, content parts" -> {
                    json = "{\"model\":\"m\",\"messages\":[{\"content\":" + literal(random, a)
                            + ",\"role\":\"system\"},{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":"
                            + literal(random, b) + "},{\"text\":" + literal(random, a) + "}]}]}";
                    expected = "<|system|>\n" + a + "\n<|user|>\n" + b + a + "\n";
                }
                default -> {
                    json = "{\"model\":\"m\",\"input\":" + literal(random, b) + ",\"instructions\":" + literal(random, a)
                            + "}";
                    expected = "<|system|>\n" + a + "\n" + b;
                }
            }
            byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
            // in pieces, as a request arrives: strings and escapes cut across buffers
            int cut1 = random.nextInt(bytes.length);
            int cut2 = cut1 + random.nextInt(bytes.length - cut1);
            ByteBuf body = Unpooled.wrappedBuffer(Arrays.copyOfRange(bytes, 0, cut1),
                    Arrays.copyOfRange(bytes, cut1, cut2), Arrays.copyOfRange(bytes, cut2, bytes.length));
            assertThat(InferenceRequestParser.parse(body.duplicate()).promptText()).isEqualTo(expected);
            for (int limit : new int[] {0, 1, 11, 12, 13, 100, 4095, 4096, 4097, 16_384, expected.length()}) {
                ParsedBody bounded = InferenceRequestParser.parse(body.duplicate(), limit);
                assertThat(bounded.promptText()).as("limit %d", limit)
                        .isEqualTo(expected.substring(0, Math.min(limit, expected.length())));
            }
        }
    }

    @Test
    void theTokenEstimateCountsWhatWasNotDecoded() {
        String prompt = "word ".repeat(40_000);
        ParsedBody whole = parse("{\"model\":\"m\",\"prompt\":\"" + prompt + "\",\"stream\":true}");
        ParsedBody bounded = InferenceRequestParser.parse(
                Unpooled.wrappedBuffer(("{\"model\":\"m\",\"prompt\":\"" + prompt + "\",\"stream\":true}")
                        .getBytes(StandardCharsets.UTF_8)), 16_384);
        assertThat(bounded.promptText()).isEqualTo(prompt.substring(0, 16_384));
        assertThat(bounded.stream()).isTrue();
        assertThat(whole.promptTokensEstimate()).isEqualTo(50_000);
        assertThat(bounded.promptTokensEstimate()).isBetween(50_000, 50_001);
    }

    static Stream<Arguments> badBeyondTheLimit() {
        return Stream.of(
                Arguments.of("a byte that is no UTF-8", new byte[] {(byte) 0xFF}),
                Arguments.of("a cut UTF-8 sequence", new byte[] {(byte) 0xE4, 'a'}),
                Arguments.of("an unknown escape", "\\x".getBytes(StandardCharsets.US_ASCII)),
                Arguments.of("a bad unicode escape", "\\u12G4".getBytes(StandardCharsets.US_ASCII)),
                Arguments.of("a raw control character", new byte[] {0x01}));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badBeyondTheLimit")
    void aPromptIsCheckedBeyondWhatIsDecoded(String scenario, byte[] bad) {
        // near the start, where Jackson reads it, and far past what the parser hands Jackson of a long string, at
        // every place within the stretch of bytes the parser checks at once
        for (int before : IntStream.concat(IntStream.of(100), IntStream.range(60_000, 60_040)).toArray()) {
            byte[] head = ("{\"model\":\"m\",\"prompt\":\"" + "x".repeat(before)).getBytes(StandardCharsets.US_ASCII);
            byte[] tail = ("yz" + "w".repeat(before) + "\"}").getBytes(StandardCharsets.US_ASCII);
            ByteBuf body = Unpooled.wrappedBuffer(head, bad, tail);
            for (int limit : new int[] {0, 50, Integer.MAX_VALUE}) {
                assertThatThrownBy(() -> InferenceRequestParser.parse(body.duplicate(), limit))
                        .as("%d bytes in, limit %d", before, limit)
                        .isInstanceOf(GatewayError.class)
                        .hasMessageContaining("not valid JSON");
            }
        }
    }

    @Test
    void whatFollowsALongPromptIsStillReadAndChecked() {
        String prompt = "a long prompt with \\\"escapes\\\" and é 中 😀 ".repeat(4_000);
        String json = "{\"prompt\":\"" + prompt + "\",\"stream\":true,\"model\":\"m\",\"max_tokens\":7}";
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        for (int limit : new int[] {0, 16_384}) {
            ParsedBody r = InferenceRequestParser.parse(Unpooled.wrappedBuffer(bytes), limit);
            assertThat(r.model()).isEqualTo("m");
            assertThat(r.stream()).isTrue();
            assertThat(r.maxTokens()).isEqualTo(7);
            // what was not decoded counts by its bytes: at least the characters' estimate, at most the bytes'
            assertThat(r.promptTokensEstimate()).isBetween(
                    InferenceRequestParser.parse(Unpooled.wrappedBuffer(bytes)).promptTokensEstimate(),
                    bytes.length / 4 + 1);
            // the same body cut short, or broken after the prompt, is a 400
            for (String broken : new String[] {json.substring(0, json.length() - 40), json.replace(",\"stream\"", ",stream"),
                    json.replace("\",\"stream", "\" \"stream")}) {
                assertThatThrownBy(() -> InferenceRequestParser.parse(
                        Unpooled.wrappedBuffer(broken.getBytes(StandardCharsets.UTF_8)), limit))
                        .as("limit %d", limit)
                        .isInstanceOf(GatewayError.class)
                        .hasMessageContaining("not valid JSON");
            }
        }
    }

    @Test
    void aLongValueTheParserSkipsIsCheckedToo() {
        String image = "data:image/png;base64," + "iVBORw0KGgo".repeat(10_000);
        String json = "{\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"image_url\",\"image_url\":{\"url\":\""
                + image + "\",\"detail\":\"low\"}},{\"type\":\"text\",\"text\":\"what is this?\"}]}],"
                + "\"user\":\"" + "u".repeat(20_000) + "\",\"model\":\"m\"}";
        ParsedBody r = parse(json);
        assertThat(r.model()).isEqualTo("m");
        assertThat(r.promptText()).isEqualTo("<|user|>\nwhat is this?\n");
        for (String broken : new String[] {json.replace("iVBORw0KGgoiVBORw0KGgo\"", "iVBORw0KGgo\u0001iVBORw0KGgo\""),
                json.replace("\"user\":\"uuu", "\"user\":\"\\quu"), json.substring(0, 50_000)}) {
            assertThatThrownBy(() -> parse(broken))
                    .isInstanceOf(GatewayError.class)
                    .hasMessageContaining("not valid JSON");
        }
    }

    private static ParsedBody parse(String json) {
        return InferenceRequestParser.parse(Unpooled.wrappedBuffer(json.getBytes(StandardCharsets.UTF_8)));
    }
}
