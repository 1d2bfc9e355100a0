package io.inferencegateway.lab.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
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

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.inferencegateway.config.PoolConfig;
import io.inferencegateway.config.TokenizerConfig;
import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.simulator.FleetOptions;
import io.inferencegateway.simulator.SimulatedFleet;
import io.inferencegateway.tokenize.PoolTokenizers;
import io.inferencegateway.tokenize.PromptTokenizer;
import io.inferencegateway.tokenize.TokenizeMeters;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.inferencegateway.tokenize.PromptTokenizerTest;

/**
 * What exact tokenization costs a chat request (tokenize/PromptTokenizer, called by camel/TokenizePrompt when the pool
 * names a tokenizer): Qwen2.5's chat template rendered and its tokenizer run over a conversation of about 1k, 8k and
 * 32k tokens (a system prompt, then user and assistant turns of about 500 tokens, then a new question).
 * {@code cold}: nothing of it tokenized before (a cache of 0 tokens, and each call's text differs). {@code warm}: the
 * conversation's next turn, its history tokenized before, its new question not.
 *
 * <pre>
 * mvn -B -q package -DskipTests
 * java -cp lab/target/test-classes:lab/target/classes:$(cat lab/target/test-classpath.txt) \
 *      org.openjdk.jmh.Main TokenizeBenchmark
 * </pre>
 *
 * Sample-time mode: JMH prints p50, p99 and the rest per case. {@code engine}: the same conversation counted by a
 * simulated vLLM pod's {@code POST /tokenize} on this machine (source engine): the gateway's side of it, the round trip
 * and both JSON bodies; a real engine adds its own template render and tokenization (the cold case above, in Python
 * and Rust). Its {@code cache} parameter does not apply.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Thread)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class TokenizeBenchmark {

    private static final String[] WORDS = ("the of and to in is that for it with as was on be by this are from at an "
            + "model server request token cache prefix latency queue pod gateway route decode prefill batch memory "
            + "throughput kubernetes cluster metric scheduler engine adapter session conversation answer question "
            + "function value return string number list map error status config replica weight score pick 2024 "
            + "3.14 42 résumé naïve über 東京 数据 🚀").split(" ");

    private static final ObjectMapper JSON = new ObjectMapper();

    @Param({"1000", "8000", "32000"})
    public int tokens;

    @Param({"cold", "warm"})
    public String cache;

    private Path dir;
    private PromptTokenizer tokenizer;
    private SimulatedFleet pod;
    private PoolTokenizers engine;
    private PoolConfig enginePool;
    private List<Endpoint> pods;
    private List<Map<String, Object>> history;
    private long turn;

    @Setup
    public void load() throws IOException {
        dir = Files.createTempDirectory("qwen2.5");
        PromptTokenizerTest.copyModel(dir);
        tokenizer = PromptTokenizer.load(dir, cache.equals("warm") ? 4_000_000 : 0);
        Random random = new Random(42);
        history = new ArrayList<>();
        history.add(Map.of("role", "system", "content", text(random, 100)));
        int total = 100;
        while (total < tokens - 50) {
            int n = Math.min(500, tokens - 50 - total);
            history.add(Map.of("role", history.size() % 2 == 1 ? "user" : "assistant", "content", text(random, n)));
            total += n;
        }
        if (history.size() % 2 == 0) { // end on an assistant turn, so that the new question follows it
            history.add(Map.of("role", "assistant", "content", text(random, 20)));
        }
        if (cache.equals("warm")) {
            tokenizer.chat(next(), null, true, Map.of());
        }
        pod = SimulatedFleet.start(FleetOptions.builder().pods(1).model("qwen").build());
        String[] address = pod.endpoints().get(0).split(":");
        pods = List.of(new Endpoint(address[0], Integer.parseInt(address[1])));
        enginePool = PoolConfig.builder("qwen").endpoints(pods)
                .tokenizer(new TokenizerConfig(TokenizerConfig.TokenSource.ENGINE, null, 0)).build();
        TokenizeMeters meters = new TokenizeMeters();
        meters.bindTo(new SimpleMeterRegistry());
        engine = new PoolTokenizers(meters, 1);
        engine.apply(List.of(enginePool));
    }

    /** About {@code n} tokens of words (Qwen2.5 reads about one token a word of these). */
    private static String text(Random random, int n) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < n; i++) {
            s.append(i == 0 ? "" : random.nextInt(12) == 0 ? ".\n" : " ").append(WORDS[random.nextInt(WORDS.length)]);
        }
        return s.toString();
    }

    /** The conversation with a new question; cold, every message differs from every earlier call's. */
    private List<Map<String, Object>> next() {
        long t = turn++;
        List<Map<String, Object>> messages = new ArrayList<>(history.size() + 1);
        for (Map<String, Object> m : history) {
            messages.add(cache.equals("cold")
                    ? Map.of("role", m.get("role"), "content", t + " " + m.get("content")) : m);
        }
        messages.add(Map.of("role", "user", "content", "Question " + t + ": what does the last answer say about the "
                + "gateway's queue, and why?"));
        return messages;
    }

    @Benchmark
    public int chat() {
        return tokenizer.chat(next(), null, true, Map.of()).length;
    }

    @Benchmark
    public int engine() {
        ObjectNode body = JSON.createObjectNode().put("model", "qwen");
        body.set("messages", JSON.valueToTree(next()));
        return engine.tokenizeAsync(enginePool, pods, body, true).join().tokens().length;
    }

    @TearDown
    public void close() throws IOException {
        engine.close();
        pod.close();
        tokenizer.close();
        try (var files = Files.list(dir)) {
            for (Path f : files.toList()) {
                Files.delete(f);
            }
        }
        Files.delete(dir);
    }
}
