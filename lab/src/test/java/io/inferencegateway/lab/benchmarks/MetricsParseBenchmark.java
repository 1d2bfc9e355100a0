package io.inferencegateway.lab.benchmarks;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.OptionsBuilder;

import io.inferencegateway.domain.InFlightRequests;
import io.inferencegateway.metrics.EndpointMetrics;
import io.inferencegateway.metrics.EngineDialect;
import io.inferencegateway.metrics.EngineDialects;
import io.inferencegateway.metrics.Labels;
import io.inferencegateway.metrics.PrometheusTextParser;
import io.inferencegateway.metrics.SampleVisitor;

/**
 * Cost of turning one vLLM {@code /metrics} response into {@link EndpointMetrics}: what each scrape pays on the
 * scraper's event loop (metrics/ScrapeConnection.java), 20 times a second per pod at the default 50 ms period.
 *
 * <pre>
 * mvn -B -q package -DskipTests
 * java -cp lab/target/test-classes:lab/target/classes:$(cat lab/target/test-classpath.txt) \
 *      io.inferencegateway.lab.benchmarks.MetricsParseBenchmark
 * </pre>
 *
 * Benchmarks: {@code vllmDialect} (the scraper's path), {@code everySample} (the parser handing over every sample,
 * labels included: the cost a dialect avoids by selecting by name) and {@code lineRegex} (a String and a regular
 * expression per line, the usual first implementation, for comparison).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class MetricsParseBenchmark {

    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)\\})?\\s+(\\S+)(\\s+-?\\d+)?\\s*$");

    @Param({"vllm-0.10-metrics.txt", "vllm-0.10-full-metrics.txt"})
    public String fixture;

    private byte[] text;
    private final EngineDialect vllm = EngineDialects.forEngine("vllm");

    @Setup
    public void load() throws IOException {
        try (InputStream in = MetricsParseBenchmark.class.getResourceAsStream("/fixtures/" + fixture)) {
            text = in.readAllBytes();
        }
    }

    @Benchmark
    public EndpointMetrics vllmDialect() {
        return vllm.read(text, 0, text.length, 1L, InFlightRequests.Counters.ZERO).metrics();
    }

    @Benchmark
    public PrometheusTextParser.ParseStats everySample(Blackhole blackhole) {
        return new PrometheusTextParser().parse(text, new SampleVisitor() {
            @Override
            public int select(byte[] bytes, int nameOffset, int nameLength, int nameHash) {
                return 0;
            }

            @Override
            public void sample(int id, Labels labels, double value) {
                for (int i = 0; i < labels.size(); i++) {
                    blackhole.consume(labels.value(i));
                }
                blackhole.consume(value);
            }
        });
    }

    @Benchmark
    public double lineRegex() {
        double waiting = Double.NaN;
        for (String line : new String(text, StandardCharsets.UTF_8).split("\n")) {
            if (line.startsWith("#")) {
                continue;
            }
            Matcher m = SAMPLE.matcher(line);
            if (m.matches() && m.group(1).equals("vllm:num_requests_waiting")) {
                waiting = Double.parseDouble(m.group(4));
            }
        }
        return waiting;
    }

    public static void main(String[] args) throws RunnerException {
        new Runner(new OptionsBuilder()
                .include(MetricsParseBenchmark.class.getSimpleName())
                .addProfiler(GCProfiler.class)
                .build()).run();
    }
}
