package io.inferencegateway.openai;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/**
 * Any response body, scanned whole, one byte at a time and cut into chunks of fuzzed sizes: each run finds the same
 * usages and relays the same bytes, and the first content is reported in the chunk holding the byte where the
 * byte-at-a-time run reported it. The fuzzer's trailing bytes choose the mode and the cuts (FuzzedDataProvider reads
 * its numbers from the end), the rest is the body; the corpus is in {@code ResponseScannerFuzzTestInputs/}.
 */
class ResponseScannerFuzzTest {

    @FuzzTest(maxDuration = "2m")
    void findsTheSameWhereverTheBodyIsCut(FuzzedDataProvider data) {
        boolean eventStream = data.consumeBoolean();
        boolean strip = data.consumeBoolean();
        int[] sizes = new int[data.consumeInt(1, 16)];
        for (int i = 0; i < sizes.length; i++) {
            sizes[i] = data.consumeInt(1, 64);
        }
        byte[] body = data.consumeRemainingAsBytes();

        Run whole = run(body, eventStream, strip, new int[] {Math.max(1, body.length)});
        Run bytewise = run(body, eventStream, strip, new int[] {1});
        Run cut = run(body, eventStream, strip, sizes);
        for (Run r : List.of(bytewise, cut)) {
            assertThat(r.usages).as("usages").isEqualTo(whole.usages);
            assertThat(r.relayed).as("relayed bytes").isEqualTo(whole.relayed);
            assertThat(r.firstContentEnd >= 0).as("first content found").isEqualTo(whole.firstContentEnd >= 0);
        }
        if (!strip || !eventStream) {
            assertThat(whole.relayed).as("nothing is stripped").isEqualTo(body);
        }
        if (bytewise.firstContentEnd >= 0) {
            // the byte that completed the first content lies in the chunk that reported it
            int at = bytewise.firstContentEnd - 1;
            assertThat(cut.firstContentStart).as("chunk start").isLessThanOrEqualTo(at);
            assertThat(cut.firstContentEnd).as("chunk end").isGreaterThan(at);
        }
    }

    /** What one run found: usages in order, the relayed bytes, and the chunk [start, end) that gave the first content. */
    private static final class Run implements ResponseScanner.Findings {
        final List<List<Integer>> usages = new ArrayList<>();
        byte[] relayed;
        int firstContentStart = -1;
        int firstContentEnd = -1;
        private int chunkStart;
        private int chunkEnd;

        @Override
        public void firstContent() {
            if (firstContentEnd < 0) {
                firstContentStart = chunkStart;
                firstContentEnd = chunkEnd;
            }
        }

        @Override
        public void usage(int input, int output, int cached) {
            usages.add(List.of(input, output, cached));
        }
    }

    private static Run run(byte[] body, boolean eventStream, boolean strip, int[] sizes) {
        Run run = new Run();
        ResponseScanner scanner = new ResponseScanner(eventStream, strip, run);
        ByteArrayOutputStream relayed = new ByteArrayOutputStream();
        int i = 0;
        for (int k = 0; i < body.length; k++) {
            int n = Math.min(sizes[k % sizes.length], body.length - i);
            run.chunkStart = i;
            run.chunkEnd = i + n;
            relay(scanner.scan(Unpooled.copiedBuffer(body, i, n)), relayed);
            i += n;
        }
        ByteBuf rest = scanner.end();
        if (rest != null) {
            relay(rest, relayed);
        }
        run.relayed = relayed.toByteArray();
        return run;
    }

    private static void relay(ByteBuf out, ByteArrayOutputStream into) {
        byte[] bytes = new byte[out.readableBytes()];
        out.getBytes(out.readerIndex(), bytes);
        into.writeBytes(bytes);
        out.release();
    }
}
