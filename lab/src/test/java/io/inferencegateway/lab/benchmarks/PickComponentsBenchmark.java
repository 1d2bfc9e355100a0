package io.inferencegateway.lab.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
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
import org.openjdk.jmh.annotations.Warmup;

import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.scheduling.prefix.PrefixIndex;
import io.inferencegateway.scheduling.prefix.PromptBlocks;

/**
 * Where a decision's time goes, part by part, for an 8,000-character prompt (125 blocks): hashing it,
 * matching it against the index, and recording it (the repeat case: every block is already there and is
 * only moved to the front of its pod's LRU). Average time per operation.
 *
 * <p>Run (see docs/scheduling.md): {@code java -cp lab/target/test-classes:lab/target/classes:$(cat
 * lab/target/test-classpath.txt) org.openjdk.jmh.Main PickComponentsBenchmark}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class PickComponentsBenchmark {

    @Param({"64", "2048"})
    public int endpoints;

    private final PromptBlocks blocks = new PromptBlocks();
    private PrefixIndex index;
    private String[] prompts;
    private long[][] hashes;
    private List<Endpoint> pods;
    private int[] out;
    private int next;

    @Setup
    public void setUp() {
        SplittableRandom random = new SplittableRandom(1);
        pods = new ArrayList<>();
        for (int i = 0; i < endpoints; i++) {
            pods.add(new Endpoint("10.0." + (i >> 8) + "." + (i & 255), 8000));
        }
        prompts = new String[1024];
        hashes = new long[prompts.length][];
        index = new PrefixIndex();
        for (int p = 0; p < prompts.length; p++) {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < 8_000; i++) {
                sb.append((char) ('a' + random.nextInt(26)));
            }
            prompts[p] = sb.toString();
            blocks.compute("m", null, prompts[p]);
            hashes[p] = java.util.Arrays.copyOf(blocks.hashes(), blocks.count());
            index.record(hashes[p], hashes[p].length, pods.get(p % endpoints));
        }
        out = new int[endpoints];
    }

    private int nextPrompt() {
        next = (next + 1) & (prompts.length - 1);
        return next;
    }

    @Benchmark
    public long hashPrompt() {
        return blocks.compute("m", null, prompts[nextPrompt()]).hash(0);
    }

    @Benchmark
    public int matchPrompt() {
        long[] h = hashes[nextPrompt()];
        return index.match(h, h.length, pods, out);
    }

    @Benchmark
    public int recordRepeat() {
        int p = nextPrompt();
        index.record(hashes[p], hashes[p].length, pods.get(p % endpoints));
        return p;
    }
}
