package io.inferencegateway.lab.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

import io.inferencegateway.config.ConfigLoader;
import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.NanoClock;
import io.inferencegateway.domain.ParsedBody;
import io.inferencegateway.domain.PickDecision;
import io.inferencegateway.domain.PickReason;
import io.inferencegateway.domain.RequestRecord;
import io.inferencegateway.observability.FleetView;
import io.inferencegateway.runtime.Gateway;

/**
 * What the live fleet page costs: the fleet view's work per request ({@code picked} and {@code ended} of an
 * already-filled record, from two threads into one pool of 64 pods, as two event loops would), and one
 * {@code GET /ui/fleet} answer (snapshot and JSON) of that pool with its windows full. Average time per operation.
 *
 * <pre>
 * java -cp lab/target/test-classes:lab/target/classes:$(cat lab/target/test-classpath.txt) \
 *      org.openjdk.jmh.Main FleetViewBenchmark
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class FleetViewBenchmark {

    static final String MODEL = "meta-llama/Llama-3.1-8B-Instruct";
    static final int PODS = 64;

    FleetView fleet;
    List<RequestRecord> records;

    @Setup
    public void setUp() throws Exception {
        List<String> endpoints = new ArrayList<>();
        for (int i = 0; i < PODS; i++) {
            endpoints.add("\"10.0.0." + (i + 1) + ":8000\"");
        }
        Gateway gateway = new Gateway(ConfigLoader.parse("kind: InferenceGatewayConfig\nspec:\n  schedulers:\n"
                + "    - {name: llama, modelName: " + MODEL + ", endpoints: [" + String.join(", ", endpoints) + "]}\n"),
                NanoClock.SYSTEM);
        fleet = gateway.fleetView();
        records = new ArrayList<>();
        for (int i = 0; i < 4096; i++) {
            long start = System.nanoTime();
            RequestRecord r = new RequestRecord(start, System.currentTimeMillis(), "POST", "/v1/chat/completions", "chat", null, null);
            r.parsed(ParsedBody.builder(MODEL).promptText("hello").promptTokensEstimate(2).stream(true).build(), start);
            r.routedTo("llama", MODEL);
            r.picked(new PickDecision(gateway.pools().pool("llama").endpoints().get(i % PODS), PickReason.PREFIX_HIT,
                    128, PODS), 20_000);
            r.answered(200, start + 1_000_000);
            r.firstToken(start + (5 + i % 200) * 1_000_000L);
            r.usage(300, 40, 128);
            r.end(RequestRecord.Ending.COMPLETED, start + 300_000_000L);
            records.add(r);
        }
        for (int k = 0; k < 10; k++) {
            records.forEach(this::listen); // every pod's TTFT ring full
        }
    }

    /** Per thread, its own walk through the records. */
    @State(Scope.Thread)
    public static class Cursor {
        int next;
    }

    private void listen(RequestRecord r) {
        fleet.picked(r);
        fleet.ended(r);
    }

    @Benchmark
    @Threads(2)
    public void perRequest(Cursor cursor) {
        listen(records.get(cursor.next++ & (4096 - 1)));
    }

    @Benchmark
    public byte[] fleetJson() {
        return fleet.json();
    }
}
