package io.inferencegateway.lab.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.List;
import java.util.SplittableRandom;

import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.kvevents.EngineCacheIndex;
import io.inferencegateway.kvevents.KvEvent;
import io.inferencegateway.kvevents.KvEventBatch;

/**
 * What the index of the engines' KV caches costs in heap per block: feeds one endpoint chains of 64 blocks of 16 tokens
 * (prompts of 1,024 tokens) as an engine's {@code BlockStored} events would, up to N blocks (default 1,000,000: an
 * 80 GB accelerator's cache of an 8B model holds about 40,000 blocks of 16 tokens, so this is many engines' worth), and
 * prints the heap after a GC, before and after, per block.
 *
 * <p>Run: {@code java -Xmx2g -cp lab/target/test-classes:lab/target/classes:$(cat lab/target/test-classpath.txt)
 * io.inferencegateway.lab.benchmarks.EngineCacheIndexMemoryMeasurement [blocks]}
 */
public final class EngineCacheIndexMemoryMeasurement {

    private EngineCacheIndexMemoryMeasurement() {
    }

    public static void main(String[] args) {
        int blocks = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        EngineCacheIndex index = new EngineCacheIndex(blocks, EngineCacheIndex.MediumWeights.DEFAULT);
        Endpoint pod = new Endpoint("10.0.0.1", 8000);
        SplittableRandom random = new SplittableRandom(7);
        long before = usedAfterGc(memory);
        long hash = 1;
        for (int stored = 0; stored < blocks; stored += 64) {
            long[] hashes = new long[64];
            int[] tokens = new int[64 * 16];
            for (int b = 0; b < hashes.length; b++) {
                hashes[b] = hash++;
            }
            for (int t = 0; t < tokens.length; t++) {
                tokens[t] = random.nextInt(150_000);
            }
            index.batch(pod, new KvEventBatch(0, List.of(new KvEvent.BlockStored(hashes, null, tokens, 16, null,
                    KvEvent.Medium.GPU, 0)), 0, 0));
        }
        long after = usedAfterGc(memory);
        System.out.printf("%,d blocks held; heap %,d -> %,d bytes: %.0f bytes a block%n", index.blocks(pod), before,
                after, (after - before) / (double) index.blocks(pod));
    }

    private static long usedAfterGc(MemoryMXBean memory) {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return memory.getHeapMemoryUsage().getUsed();
    }
}
