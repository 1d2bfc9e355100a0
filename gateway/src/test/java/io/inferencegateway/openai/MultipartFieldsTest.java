package io.inferencegateway.openai;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

class MultipartFieldsTest {

    static final Set<String> WANTED = Set.of("model", "stream");

    static String part(String disposition, String value) {
        return "--xyz\r\nContent-Disposition: form-data; " + disposition + "\r\n\r\n" + value + "\r\n";
    }

    static Stream<Arguments> bodies() {
        String file = part("name=\"file\"; filename=\"a.wav\"\r\nContent-Type: audio/wav", "RIFF\r\nmodel\r\n--xy");
        return Stream.of(
                Arguments.of("model after the file part", file + part("name=\"model\"", "whisper-1") + "--xyz--\r\n",
                        Map.of("model", "whisper-1")),
                Arguments.of("model and stream before the file", part("name=model", "w") + part("name=\"stream\"", "true")
                        + file + "--xyz--", Map.of("model", "w", "stream", "true")),
                Arguments.of("a preamble before the first part", "ignored\r\n" + part("name=\"model\"", "w") + "--xyz--",
                        Map.of("model", "w")),
                Arguments.of("a file part named model is not the field",
                        part("name=\"model\"; filename=\"m.bin\"", "x") + "--xyz--", Map.of()),
                Arguments.of("a body cut short keeps what was complete", part("name=\"model\"", "w") + "--xyz\r\nContent-Disp",
                        Map.of("model", "w")),
                Arguments.of("no parts at all", "just text", Map.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("bodies")
    void readsTheWantedFieldsInPlace(String scenario, String body, Map<String, String> expected) {
        ByteBuf buf = Unpooled.copiedBuffer(body, StandardCharsets.UTF_8);
        int before = buf.readerIndex();

        assertThat(MultipartFields.read(buf, "xyz", WANTED)).isEqualTo(expected);
        assertThat(buf.readerIndex()).as("the body is left for the model server").isEqualTo(before);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("boundaries")
    void boundaryComesFromTheContentType(String contentType, String boundary) {
        assertThat(MultipartFields.boundary(contentType)).isEqualTo(boundary);
    }

    static Stream<Arguments> boundaries() {
        return Stream.of(Arguments.of("multipart/form-data; boundary=xyz", "xyz"),
                Arguments.of("multipart/form-data; charset=utf-8; BOUNDARY=\"a b\"", "a b"),
                Arguments.of("multipart/form-data", null),
                Arguments.of("multipart/form-data; boundary=", null));
    }
}
