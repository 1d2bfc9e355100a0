package io.inferencegateway.lab.bench.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.inferencegateway.lab.bench.load.ChunkReader.Chunk;

class ChunkReaderTest {

    static Stream<Arguments> chunks() {
        return Stream.of(
                Arguments.of("role-only first chunk has no content",
                        "{\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}",
                        new Chunk("", -1, null, false), false),
                Arguments.of("content chunk",
                        "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"},\"finish_reason\":null}]}",
                        new Chunk("Hi", -1, null, false), true),
                Arguments.of("null content",
                        "{\"choices\":[{\"delta\":{\"content\":null},\"finish_reason\":\"stop\"}]}",
                        new Chunk(null, -1, null, false), false),
                Arguments.of("usage chunk with empty choices",
                        "{\"choices\":[],\"usage\":{\"prompt_tokens\":9,\"completion_tokens\":7,\"total_tokens\":16}}",
                        new Chunk(null, 7, null, false), false),
                Arguments.of("usage null on ordinary chunks",
                        "{\"choices\":[{\"delta\":{\"content\":\"x\"}}],\"usage\":null}",
                        new Chunk("x", -1, null, false), true),
                Arguments.of("done marker", "[DONE]", Chunk.DONE, false),
                Arguments.of("error event",
                        "{\"error\":{\"message\":\"upstream died\",\"type\":\"server_error\"}}",
                        new Chunk(null, -1, "error event: upstream died", false), false),
                Arguments.of("not JSON", "oops", new Chunk(null, -1, "chunk is not JSON: oops", false), false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("chunks")
    void readsWhatTheBenchNeeds(String name, String data, Chunk expected, boolean hasContent) {
        Chunk chunk = ChunkReader.read(data);
        assertThat(chunk).isEqualTo(expected);
        assertThat(chunk.hasContent()).isEqualTo(hasContent);
    }
}
