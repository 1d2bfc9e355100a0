package io.inferencegateway.lab.bench.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class SseDecoderTest {

    static Stream<Arguments> streams() {
        return Stream.of(
                Arguments.of("two events", "data: a\n\ndata: b\n\n", List.of("a", "b")),
                Arguments.of("CRLF line ends", "data: a\r\n\r\ndata: b\r\n\r\n", List.of("a", "b")),
                Arguments.of("no space after colon", "data:a\n\n", List.of("a")),
                Arguments.of("multi-line data joined by newline", "data: a\ndata: b\n\n", List.of("a\nb")),
                Arguments.of("comments and other fields skipped", ": ping\nevent: x\nid: 3\ndata: a\n\n", List.of("a")),
                Arguments.of("blank lines without data deliver nothing", "\n\n\ndata: a\n\n\n", List.of("a")),
                Arguments.of("event cut off by the end is dropped", "data: a\n\ndata: b\n", List.of("a")),
                Arguments.of("UTF-8 content", "data: {\"c\":\"héllo ✓\"}\n\n", List.of("{\"c\":\"héllo ✓\"}")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("streams")
    void decodesWholeStream(String name, String stream, List<String> expected) {
        assertThat(decodeInPieces(stream.getBytes(StandardCharsets.UTF_8), Integer.MAX_VALUE)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0}, byte by byte")
    @MethodSource("streams")
    void decodesAnySplitIncludingInsideCharacters(String name, String stream, List<String> expected) {
        byte[] bytes = stream.getBytes(StandardCharsets.UTF_8);
        for (int piece = 1; piece <= 7; piece++) {
            assertThat(decodeInPieces(bytes, piece)).as("pieces of %d bytes", piece).isEqualTo(expected);
        }
    }

    private static List<String> decodeInPieces(byte[] bytes, int pieceSize) {
        SseDecoder decoder = new SseDecoder();
        List<String> events = new ArrayList<>();
        for (int from = 0; from < bytes.length; from += pieceSize) {
            decoder.feed(Arrays.copyOfRange(bytes, from, (int) Math.min(bytes.length, (long) from + pieceSize)),
                    events::add);
        }
        return events;
    }
}
