package io.inferencegateway.openai;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/** What the scanner finds in the response shapes model servers send, however the bytes are cut into chunks. */
class ResponseScannerTest {

    static final String CHAT_STREAM = ""
            + "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"finish_reason\":null}]}\n\n"
            + "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hel\"},\"finish_reason\":null}]}\n\n"
            + "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"lo\"},\"finish_reason\":\"stop\"}]}\n\n"
            + "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"choices\":[],\"usage\":{\"prompt_tokens\":12,\"total_tokens\":14,\"completion_tokens\":2,\"prompt_tokens_details\":{\"cached_tokens\":8}}}\n\n"
            + "data: [DONE]\n\n";

    static final String RESPONSES_STREAM = ""
            + "event: response.created\ndata: {\"type\":\"response.created\",\"response\":{\"id\":\"r\",\"instructions\":\"be \\\"usage\\\":{brief}\",\"output\":[],\"usage\":null}}\n\n"
            + "event: response.content_part.added\ndata: {\"type\":\"response.content_part.added\",\"part\":{\"type\":\"output_text\",\"text\":\"\"}}\n\n"
            + "event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"delta\":\"Hi\"}\n\n"
            + "event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"id\":\"r\",\"status\":\"completed\","
            + "\"usage\":{\"input_tokens\":30,\"input_tokens_details\":{\"cached_tokens\":16},\"output_tokens\":5,"
            + "\"output_tokens_details\":{\"reasoning_tokens\":0},\"total_tokens\":35}}}\n\n";

    static final String CHAT_JSON = "{\"id\":\"c\",\"object\":\"chat.completion\",\"choices\":[{\"index\":0,"
            + "\"message\":{\"role\":\"assistant\",\"content\":\"say \\\"usage\\\": {no}\"}}],"
            + "\"usage\": {\"prompt_tokens\": 7, \"total_tokens\": 10, \"completion_tokens\": 3}}";

    static final String SPACED_STREAM = "data: {\"choices\": [{\"delta\": {\"content\": \"x\"}}]}\r\n\r\n";

    /** Records what the scanner reports. */
    static final class Seen implements ResponseScanner.Findings {
        int firstContentAtChunk = -1;
        int chunk;
        final List<int[]> usages = new ArrayList<>();

        @Override
        public void firstContent() {
            if (firstContentAtChunk < 0) {
                firstContentAtChunk = chunk;
            }
        }

        @Override
        public void usage(int input, int output, int cached) {
            usages.add(new int[] {input, output, cached});
        }
    }

    record Run(Seen seen, String relayed) {
    }

    static Run scan(String body, boolean eventStream, boolean strip, int chunkSize) {
        Seen seen = new Seen();
        ResponseScanner scanner = new ResponseScanner(eventStream, strip, seen);
        StringBuilder relayed = new StringBuilder();
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < bytes.length; i += chunkSize) {
            ByteBuf out = scanner.scan(Unpooled.copiedBuffer(bytes, i, Math.min(chunkSize, bytes.length - i)));
            relayed.append(out.toString(StandardCharsets.UTF_8));
            out.release();
            seen.chunk++;
        }
        ByteBuf rest = scanner.end();
        if (rest != null) {
            relayed.append(rest.toString(StandardCharsets.UTF_8));
            rest.release();
        }
        return new Run(seen, relayed.toString());
    }

    static Stream<Arguments> chunkings() {
        return Stream.of(1, 2, 3, 7, 64, 100_000).map(Arguments::of);
    }

    @ParameterizedTest(name = "chunks of {0} bytes")
    @MethodSource("chunkings")
    void chatStreamGivesFirstContentAndTheFinalUsage(int chunkSize) {
        Run run = scan(CHAT_STREAM, true, false, chunkSize);
        assertThat(run.seen().usages).containsExactly(new int[] {12, 2, 8});
        int firstContentByte = CHAT_STREAM.indexOf("\"Hel\"") + 1;
        assertThat(run.seen().firstContentAtChunk).as("found in the chunk holding the first content character, "
                + "not the role-only first event").isEqualTo(firstContentByte / chunkSize);
        assertThat(run.relayed()).isEqualTo(CHAT_STREAM);
    }

    @ParameterizedTest(name = "chunks of {0} bytes")
    @MethodSource("chunkings")
    void strippingRemovesTheUsageEventOnlyAndStillCountsIt(int chunkSize) {
        Run run = scan(CHAT_STREAM, true, true, chunkSize);
        assertThat(run.seen().usages).containsExactly(new int[] {12, 2, 8});
        String usageEvent = CHAT_STREAM.substring(CHAT_STREAM.indexOf("data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"choices\":[],"),
                CHAT_STREAM.indexOf("data: [DONE]"));
        assertThat(run.relayed()).isEqualTo(CHAT_STREAM.replace(usageEvent, ""));
    }

    @ParameterizedTest(name = "chunks of {0} bytes")
    @MethodSource("chunkings")
    void responsesStreamIgnoresEscapedLookalikesAndEmptyParts(int chunkSize) {
        Run run = scan(RESPONSES_STREAM, true, false, chunkSize);
        assertThat(run.seen().usages).containsExactly(new int[] {30, 5, 16});
        assertThat(run.seen().firstContentAtChunk).isEqualTo((RESPONSES_STREAM.indexOf("\"Hi\"") + 1) / chunkSize);
    }

    @ParameterizedTest(name = "chunks of {0} bytes")
    @MethodSource("chunkings")
    void plainBodyUsageWithSpacesAndNoCachedTokens(int chunkSize) {
        Run run = scan(CHAT_JSON, false, false, chunkSize);
        assertThat(run.seen().usages).containsExactly(new int[] {7, 3, -1});
        assertThat(run.seen().firstContentAtChunk).as("plain bodies are not watched for content").isEqualTo(-1);
        assertThat(run.relayed()).isEqualTo(CHAT_JSON);
    }

    @Test
    void contentAfterSpacesAndCrLfEventsIsFound() {
        Run run = scan(SPACED_STREAM, true, true, 5);
        assertThat(run.seen().firstContentAtChunk).isGreaterThanOrEqualTo(0);
        assertThat(run.relayed()).isEqualTo(SPACED_STREAM);
    }

    @Test
    void aChunkLongerThanTheScannersScratchArrayIsReadWhole() {
        // one chunk of 5 KB, read in 2,048-byte pieces: "usage": straddles the first boundary
        String body = "{\"pad\":\"" + "x".repeat(2035) + "\",\"usage\":{\"prompt_tokens\":4,\"completion_tokens\":9},"
                + "\"tail\":\"" + "y".repeat(3000) + "\"}";
        assertThat(body.indexOf("\"usage\":")).isLessThan(2048).isGreaterThan(2048 - "\"usage\":".length());
        Run run = scan(body, false, false, body.length());
        assertThat(run.seen().usages).containsExactly(new int[] {4, 9, -1});
        assertThat(run.relayed()).isEqualTo(body);
    }

    @Test
    void theUsageIsFoundAtEveryOffsetAfterAPlainRun() {
        // the scanner skips what cannot start a match a word at a time: the usage field's quote lands on every byte
        // of a word, after a run with and without quotes in it, read whole and in pieces
        for (int pad = 0; pad < 24; pad++) {
            for (String run : new String[] {"x".repeat(pad), "\\\"".repeat(pad % 3) + "y".repeat(pad)}) {
                String body = "{\"text\":\"" + run + "\",\"usage\":{\"prompt_tokens\":" + pad
                        + ",\"completion_tokens\":2}}";
                for (int chunkSize : new int[] {1, 5, 8, 9, body.length()}) {
                    Run scanned = scan(body, false, false, chunkSize);
                    assertThat(scanned.seen().usages).as("%s in chunks of %d", body, chunkSize)
                            .containsExactly(new int[] {pad, 2, -1});
                    assertThat(scanned.relayed()).isEqualTo(body);
                }
            }
        }
    }

    @Test
    void anUnterminatedLastEventIsRelayedAtTheEnd() {
        String body = "data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\ndata: [DONE]";
        assertThat(scan(body, true, true, 4).relayed()).isEqualTo(body);
    }

    @Test
    void anOversizedUsageObjectIsIgnoredNotBuffered() {
        String huge = "{\"usage\":{\"prompt_tokens\":1,\"pad\":\"" + "x".repeat(ResponseScanner.MAX_USAGE_BYTES) + "\"}}";
        assertThat(scan(huge, false, false, 512).seen().usages).isEmpty();
    }

    @Test
    void usageNullIsNotAUsage() {
        String body = "data: {\"choices\":[{\"text\":\"a\"}],\"usage\":null}\n\n";
        Run run = scan(body, true, true, 3);
        assertThat(run.seen().usages).isEmpty();
        assertThat(run.relayed()).isEqualTo(body);
    }

    @Test
    void strippingRelaysAChunkOfWholeKeptEventsAsItIsAndReleasesWhatItDrops() {
        ResponseScanner scanner = new ResponseScanner(true, true, new Seen());
        String kept = CHAT_STREAM.substring(0, CHAT_STREAM.indexOf("data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"choices\":[],"));
        ByteBuf whole = Unpooled.copiedBuffer(kept, StandardCharsets.UTF_8);
        assertThat(scanner.scan(whole)).as("no slice, no copy").isSameAs(whole);
        whole.release();

        ByteBuf withUsage = Unpooled.copiedBuffer(CHAT_STREAM.substring(kept.length()), StandardCharsets.UTF_8);
        ByteBuf relayed = scanner.scan(withUsage);
        assertThat(relayed.toString(StandardCharsets.UTF_8)).isEqualTo("data: [DONE]\n\n");
        relayed.release();
        assertThat(withUsage.refCnt()).as("the chunk is released with the part relayed from it").isZero();
        assertThat(scanner.end()).isNull();
    }
}
