package io.inferencegateway.edge;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.util.ReferenceCountUtil;

/**
 * Any bytes sent as HTTP requests, cut in two at a fuzzed point, through the gateway's request decoder in an
 * {@link EmbeddedChannel}: no exception escapes the pipeline (EmbeddedChannel rethrows one), everything decoded is
 * an HTTP object, and no request that names both a Content-Length and chunked framing comes out as decoded (it
 * carries a failed {@link DecoderResult}, which {@link ClientConnection} answers 400 and closes on). The corpus is in
 * {@code StrictRequestDecoderFuzzTestInputs/}.
 */
class StrictRequestDecoderFuzzTest {

    @FuzzTest(maxDuration = "2m")
    void anyHeadIsDecodedOrRefused(FuzzedDataProvider data) {
        int cut = data.consumeInt(0, 1 << 16);
        byte[] bytes = data.consumeRemainingAsBytes();
        cut = Math.min(cut, bytes.length);
        EmbeddedChannel channel = new EmbeddedChannel(new StrictRequestDecoder(4096, 8192, ClientConnections.MAX_CHUNK_SIZE));
        channel.writeInbound(Unpooled.wrappedBuffer(bytes, 0, cut));
        channel.writeInbound(Unpooled.wrappedBuffer(bytes, cut, bytes.length - cut));
        channel.finish();
        Object message;
        while ((message = channel.readInbound()) != null) {
            try {
                assertThat(message).isInstanceOf(HttpObject.class);
                if (message instanceof HttpRequest request && request.decoderResult().isSuccess()) {
                    assertThat(HttpUtil.isTransferEncodingChunked(request)
                            && request.headers().contains(HttpHeaderNames.CONTENT_LENGTH))
                            .as("both framing headers on a decoded request").isFalse();
                }
            } finally {
                ReferenceCountUtil.release(message);
            }
        }
    }
}
