package io.inferencegateway.openai;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/** A model rewrite's responseModel: requested, on a relayed body however its chunks fall (docs/rollouts.md). */
class ResponseModelRenameTest {

    private static final String BODY = "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"created\":1,"
            + "\"model\" : \"llama-v2\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\","
            + "\"content\":\"the \\\"model\\\":\\\"x\\\" field\",\"model\":\"nested\"}}],"
            + "\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":4,\"total_tokens\":7}}";
    private static final String RENAMED = BODY.replace("\"model\" : \"llama-v2\"", "\"model\" : \"chat\"");

    private static final String STREAM = ""
            + "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"model\":\"llama-v2\",\"choices\":[{\"delta\":"
            + "{\"role\":\"assistant\"}}]}\n\n"
            + ": keep-alive comment with a stray \" quote\n\n"
            + "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"model\":\"llama-v2\",\"choices\":[{\"delta\":"
            + "{\"content\":\"model\"}}]}\r\n\r\n"
            + "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"model\":\"lla\\\"ma\",\"choices\":[]}\n\n"
            + "data: [DONE]\n\n";
    private static final String STREAM_RENAMED = STREAM.replace("\"model\":\"llama-v2\"", "\"model\":\"chat\"")
            .replace("\"model\":\"lla\\\"ma\"", "\"model\":\"chat\"");

    @Test
    void aWholeBodyNamesTheModelAskedForAndNothingElseChanges() {
        assertThat(relay(BODY, false, BODY.length())).isEqualTo(RENAMED);
    }

    @Test
    void aBodyCutAtEveryByteIsRenamedAlike() {
        for (int cut = 1; cut < BODY.length(); cut++) {
            assertThat(relayCutAt(BODY, false, cut)).as("cut at %d", cut).isEqualTo(RENAMED);
        }
        assertThat(relay(BODY, false, 1)).isEqualTo(RENAMED);
    }

    @Test
    void everyEventOfAStreamIsRenamedWhereverTheChunksEnd() {
        assertThat(relay(STREAM, true, STREAM.length())).isEqualTo(STREAM_RENAMED);
        for (int cut = 1; cut < STREAM.length(); cut++) {
            assertThat(relayCutAt(STREAM, true, cut)).as("cut at %d", cut).isEqualTo(STREAM_RENAMED);
        }
        for (int size = 1; size < 16; size++) {
            assertThat(relay(STREAM, true, size)).as("chunks of %d", size).isEqualTo(STREAM_RENAMED);
        }
    }

    @Test
    void aNameThatNeedsEscapingIsWrittenAsAJsonString() {
        assertThat(new String(bytes(new ResponseModelRename("a\"b", false)
                .rename(buf("{\"model\":\"x\"}"))), StandardCharsets.UTF_8)).isEqualTo("{\"model\":\"a\\\"b\"}");
    }

    @Test
    void aChunkWithoutTheFieldIsRelayedAsItIs() {
        ByteBuf chunk = buf("{\"id\":\"x\",\"choices\":[]}");
        ByteBuf out = new ResponseModelRename("chat", false).rename(chunk);

        assertThat(out).isSameAs(chunk);
        out.release();
    }

    @Test
    void aModelThatIsNoStringIsLeftAsItIs() {
        String body = "{\"model\":null,\"x\":{\"model\":\"y\"}}";
        assertThat(relay(body, false, body.length())).isEqualTo(body);
    }

    private static String relayCutAt(String text, boolean eventStream, int cut) {
        ResponseModelRename r = new ResponseModelRename("chat", eventStream);
        List<ByteBuf> in = List.of(buf(text.substring(0, cut)), buf(text.substring(cut)));
        return collect(r, in);
    }

    private static String relay(String text, boolean eventStream, int size) {
        ResponseModelRename r = new ResponseModelRename("chat", eventStream);
        List<ByteBuf> in = new ArrayList<>();
        for (int i = 0; i < text.length(); i += size) {
            in.add(buf(text.substring(i, Math.min(text.length(), i + size))));
        }
        return collect(r, in);
    }

    private static String collect(ResponseModelRename r, List<ByteBuf> in) {
        StringBuilder out = new StringBuilder();
        for (ByteBuf chunk : in) {
            out.append(new String(bytes(r.rename(chunk)), StandardCharsets.UTF_8));
            assertThat(chunk.refCnt()).as("the chunk is given back").isZero();
        }
        return out.toString();
    }

    /** The bytes of {@code b}, which is released. */
    private static byte[] bytes(ByteBuf b) {
        byte[] out = new byte[b.readableBytes()];
        b.getBytes(b.readerIndex(), out);
        b.release();
        return out;
    }

    private static ByteBuf buf(String s) {
        ByteBuf b = Unpooled.buffer();
        b.writeBytes(s.getBytes(StandardCharsets.UTF_8));
        return b;
    }
}
