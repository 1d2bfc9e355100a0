package io.inferencegateway.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.inferencegateway.domain.GatewayError;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseEncoder;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.stream.ChunkedWriteHandler;

/** The relayed body on its own: queueing, back-pressure, ends and failures, without sockets. */
class StreamingBodyTest {

    /** Records what the body asks of the upstream connection. */
    static final class FakeUpstream implements StreamingBody.Upstream {
        final List<String> calls = new ArrayList<>();

        @Override
        public void pauseReading() {
            calls.add("pause");
        }

        @Override
        public void resumeReading() {
            calls.add("resume");
        }

        @Override
        public void cancel() {
            calls.add("cancel");
        }
    }

    final FakeUpstream upstream = new FakeUpstream();
    final ByteBufAllocator alloc = ByteBufAllocator.DEFAULT;

    @Test
    void emptyQueueSuspendsTheWriterAndQueuedChunksGoOutTogether() throws Exception {
        StreamingBody body = new StreamingBody(upstream, true);
        assertThat(body.readChunk(alloc)).as("nothing yet: suspend, do not block").isNull();
        assertThat(body.isEndOfInput()).isFalse();
        body.offer(text("data: 1\n\n"));
        body.offer(text("data: 2\n\n"));
        HttpContent both = body.readChunk(alloc);
        assertThat(both.content().toString(StandardCharsets.UTF_8)).isEqualTo("data: 1\n\ndata: 2\n\n");
        both.release();
        body.finish();
        assertThat(body.readChunk(alloc)).isSameAs(LastHttpContent.EMPTY_LAST_CONTENT);
        assertThat(body.isEndOfInput()).isTrue();
    }

    @Test
    void aSlowClientPausesUpstreamReadingAboveTheHighWaterMarkAndResumesBelowTheLow() throws Exception {
        StreamingBody body = new StreamingBody(upstream, true);
        int chunk = 64 * 1024;
        int chunks = (int) (StreamingBody.HIGH_WATER_BYTES / chunk) + 1;
        for (int i = 0; i < chunks; i++) {
            body.offer(Unpooled.wrappedBuffer(new byte[chunk]));
        }
        assertThat(upstream.calls).containsExactly("pause");
        HttpContent drained = body.readChunk(alloc);
        assertThat(drained.content().readableBytes()).isEqualTo(chunks * chunk);
        drained.release();
        assertThat(upstream.calls).containsExactly("pause", "resume");
    }

    @Test
    void anEventStreamThatBreaksEndsWithAnOpenAiErrorEvent() throws Exception {
        StreamingBody body = new StreamingBody(upstream, true);
        body.fail(GatewayError.upstreamTimeout());
        HttpContent last = body.readChunk(alloc);
        assertThat(last).isInstanceOf(LastHttpContent.class);
        assertThat(last.content().toString(StandardCharsets.UTF_8))
                .startsWith("data: {\"error\":").contains("\"code\":\"upstream_timeout\"").endsWith("\n\n");
        last.release();
    }

    @Test
    void theClientLeavingCancelsUpstreamAndReleasesWhatWasQueued() {
        StreamingBody body = new StreamingBody(upstream, true);
        List<StreamingBody.RelayOutcome> outcomes = new ArrayList<>();
        body.onEnd(outcomes::add);
        ByteBuf queued = text("data: never read\n\n");
        body.offer(queued);
        body.close();
        assertThat(upstream.calls).containsExactly("cancel");
        assertThat(queued.refCnt()).isZero();
        assertThat(outcomes).containsExactly(StreamingBody.RelayOutcome.CLIENT_GONE);
        body.close();
        assertThat(outcomes).as("ends once").hasSize(1);
    }

    @Test
    void aSmallChunkGoesOutAsOneFramedBufferAndTheEncoderStillFramesLargeOnesAndTheEnd() {
        ChunkedWriteHandler writer = new ChunkedWriteHandler();
        EmbeddedChannel client = new EmbeddedChannel(new HttpResponseEncoder(), writer);
        HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        head.headers().set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
        StreamingBody body = new StreamingBody(upstream, true);
        List<StreamingBody.RelayOutcome> outcomes = new ArrayList<>();
        body.onEnd(outcomes::add);
        body.attach(client, writer, head, false);
        client.write(head);
        client.writeAndFlush(body); // the writer pulls once and finds nothing yet
        String large = "x".repeat(StreamingBody.MAX_FRAMED_BYTES + 1);

        body.offer(text("data: 1\n\n"));
        body.offer(text(large));
        body.readComplete();
        body.finish();

        List<String> writes = new ArrayList<>();
        StringBuilder wire = new StringBuilder();
        for (ByteBuf b; (b = client.readOutbound()) != null; b.release()) {
            writes.add(b.toString(StandardCharsets.US_ASCII));
            wire.append(writes.get(writes.size() - 1));
        }
        assertThat(wire.toString()).isEqualTo("HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n"
                + "9\r\ndata: 1\n\n\r\n" + Integer.toHexString(large.length()) + "\r\n" + large + "\r\n0\r\n\r\n");
        assertThat(writes).as("the small chunk is one buffer").contains("9\r\ndata: 1\n\n\r\n");
        assertThat(outcomes).containsExactly(StreamingBody.RelayOutcome.COMPLETED);
        assertThat(client.finishAndReleaseAll()).isFalse();
    }

    @Test
    void aFramedChunkCarriesItsLengthInHexWithoutLeadingZeros() {
        for (int n : new int[] {1, 15, 16, 255, 256, 4095, 4096}) {
            ByteBuf data = Unpooled.wrappedBuffer(new byte[n]);
            ByteBuf framed = StreamingBody.frame(alloc, data);
            String size = Integer.toHexString(n);
            assertThat(framed.toString(0, size.length() + 2, StandardCharsets.US_ASCII)).isEqualTo(size + "\r\n");
            assertThat(framed.readableBytes()).isEqualTo(size.length() + 2 + n + 2);
            assertThat(framed.toString(framed.writerIndex() - 2, 2, StandardCharsets.US_ASCII)).isEqualTo("\r\n");
            assertThat(data.refCnt()).as("the data was copied and released").isZero();
            framed.release();
        }
    }

    private static ByteBuf text(String s) {
        return Unpooled.copiedBuffer(s, StandardCharsets.UTF_8);
    }
}
