package io.inferencegateway.lab.benchmarks;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

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

import io.inferencegateway.openai.ResponseScanner;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/**
 * What watching a relayed response costs the request path (openai/ResponseScanner, on every response the upstream
 * producer relays): a chat stream of 500 one-word events, each its own chunk as an engine writes them, ending with
 * the usage event; and a plain chat completion whose answer fills 200 KB, in 16 KiB chunks. Each run scans the whole
 * response with a fresh scanner, as each response has its own.
 *
 * <pre>
 * mvn -B -q package -DskipTests
 * java -cp lab/target/test-classes:lab/target/classes:$(cat lab/target/test-classpath.txt) \
 *      org.openjdk.jmh.Main ResponseScanBenchmark
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Thread)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ResponseScanBenchmark {

    /** {@code stream}: 500 events, one a chunk; {@code json}: one 200 KB body in 16 KiB chunks. */
    @Param({"stream", "json"})
    public String shape;

    private final List<ByteBuf> chunks = new ArrayList<>();
    private final ResponseScanner.Findings findings = new ResponseScanner.Findings() {
        @Override
        public void firstContent() {
            found++;
        }

        @Override
        public void usage(int input, int output, int cached) {
            found += output;
        }
    };
    private int found;

    @Setup
    public void build() {
        if (shape.equals("stream")) {
            for (int i = 0; i < 500; i++) {
                chunks.add(chunk("data: {\"id\":\"chatcmpl-7f3a9c\",\"object\":\"chat.completion.chunk\","
                        + "\"created\":1767225600,\"model\":\"meta-llama/Llama-3.1-8B-Instruct\",\"choices\":[{\"index\":0,"
                        + "\"delta\":{\"content\":\" word" + i + "\"},\"logprobs\":null,\"finish_reason\":null}]}\n\n"));
            }
            chunks.add(chunk("data: {\"id\":\"chatcmpl-7f3a9c\",\"object\":\"chat.completion.chunk\",\"choices\":[],"
                    + "\"usage\":{\"prompt_tokens\":812,\"total_tokens\":1312,\"completion_tokens\":500}}\n\n"
                    + "data: [DONE]\n\n"));
        } else {
            StringBuilder answer = new StringBuilder();
            for (int i = 0; answer.length() < 200_000; i++) {
                answer.append("word").append(i).append(i % 17 == 0 ? ".\\n" : " ");
            }
            byte[] body = ("{\"id\":\"chatcmpl-7f3a9c\",\"object\":\"chat.completion\",\"created\":1767225600,"
                    + "\"model\":\"meta-llama/Llama-3.1-8B-Instruct\",\"choices\":[{\"index\":0,\"message\":{\"role\":"
                    + "\"assistant\",\"content\":\"" + answer + "\"},\"finish_reason\":\"stop\"}],"
                    + "\"usage\":{\"prompt_tokens\":812,\"total_tokens\":50812,\"completion_tokens\":50000}}")
                    .getBytes(StandardCharsets.UTF_8);
            for (int i = 0; i < body.length; i += 16_384) {
                int n = Math.min(16_384, body.length - i);
                chunks.add(Unpooled.directBuffer(n).writeBytes(body, i, n));
            }
        }
    }

    private static ByteBuf chunk(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        return Unpooled.directBuffer(b.length).writeBytes(b);
    }

    @TearDown
    public void release() {
        chunks.forEach(ByteBuf::release);
    }

    @Benchmark
    public int scan() {
        ResponseScanner scanner = new ResponseScanner(shape.equals("stream"), false, findings);
        for (ByteBuf c : chunks) {
            scanner.scan(c); // returns the chunk itself when not stripping: nothing to release
        }
        return found;
    }
}
