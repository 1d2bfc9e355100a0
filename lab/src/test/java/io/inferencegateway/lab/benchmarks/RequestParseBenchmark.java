package io.inferencegateway.lab.benchmarks;

import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import io.inferencegateway.domain.ParsedBody;
import io.inferencegateway.openai.InferenceRequestParser;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufInputStream;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;

/**
 * What reading an OpenAI request body costs the request path (openai/InferenceRequestParser, called by
 * camel/ParseInferenceRequest for every inference request): the benchmark's closed-loop bodies (a completion whose
 * prompt fills 1 KiB or 200 KB, ProxyOverheadBenchmark#requestOfSize), held as the ingress's aggregator holds them (a
 * composite of 64 KiB direct pieces), read with the default prefix scorer's 16,384 characters.
 *
 * <pre>
 * mvn -B -q package -DskipTests
 * java -cp lab/target/test-classes:lab/target/classes:$(cat lab/target/test-classpath.txt) \
 *      org.openjdk.jmh.Main RequestParseBenchmark -prof gc
 * java -cp lab/target/test-classes:lab/target/classes:$(cat lab/target/test-classpath.txt) \
 *      org.openjdk.jmh.Main RequestParseBenchmark -p bytes=204800 -p bodies=1,64
 * </pre>
 *
 * Benchmarks: {@code gateway} (the parser) and {@code jacksonSkip} (Jackson streaming over the same buffer, skipping
 * every value unread: what the parser's reading costs without its own scan of a long string's rest, for comparison).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Thread)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class RequestParseBenchmark {

    private static final JsonFactory JSON = new JsonFactory();

    @Param({"1024", "204800"})
    public int bytes;

    /** Copies of the body read in turn: with 64 of 200 KB they no longer fit in the CPU's caches, as in the gateway. */
    @Param({"1"})
    public int bodies;

    private CompositeByteBuf[] copies;
    private int next;

    @Setup
    public void build() {
        byte[] json = ProxyOverheadBenchmark.requestOfSize(bytes, "m", false, 16);
        copies = new CompositeByteBuf[bodies];
        for (int c = 0; c < bodies; c++) {
            copies[c] = Unpooled.compositeBuffer(64);
            for (int i = 0; i < json.length; i += 65_536) {
                int n = Math.min(65_536, json.length - i);
                copies[c].addComponent(true, Unpooled.directBuffer(n).writeBytes(json, i, n));
            }
        }
    }

    @TearDown
    public void release() {
        for (CompositeByteBuf c : copies) {
            c.release();
        }
    }

    private CompositeByteBuf body() {
        CompositeByteBuf body = copies[next];
        next = next + 1 == copies.length ? 0 : next + 1;
        return body;
    }

    @Benchmark
    public ParsedBody gateway() {
        return InferenceRequestParser.parse(body(), 16_384);
    }

    @Benchmark
    public int jacksonSkip() throws IOException {
        ByteBuf view = body().duplicate();
        int tokens = 0;
        try (JsonParser p = JSON.createParser((InputStream) new ByteBufInputStream(view))) {
            for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
                tokens++;
            }
        }
        return tokens;
    }
}
