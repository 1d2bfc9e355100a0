package io.inferencegateway.lab.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.scheduling.prefix.PrefixIndex;
import io.inferencegateway.scheduling.prefix.PromptBlocks;

/**
 * Shows that the prefix index stays within its bound however long it runs: feeds it N requests (default
 * 10 million) of 2,048-character prompts (32 blocks: a 1,536-character prefix shared by one of 5,000
 * groups plus a 512-character tail of its own) over 64 pods, replaces 8 pods every million requests as a
 * rolling update would, and prints entries, tracked pods, the arrays' size and the heap after a GC.
 *
 * <p>Run: {@code java -Xmx512m -cp lab/target/test-classes:lab/target/classes:$(cat lab/target/test-classpath.txt)
 * io.inferencegateway.lab.benchmarks.PrefixIndexMemoryBenchmark [requests]}
 */
public final class PrefixIndexMemoryBenchmark {

    private PrefixIndexMemoryBenchmark() {
    }

    public static void main(String[] args) {
        long requests = args.length > 0 ? Long.parseLong(args[0]) : 10_000_000L;
        PrefixIndex index = new PrefixIndex(); // defaults: 31,250 per pod, 1,048,576 overall, 4,096 pods
        PromptBlocks blocks = new PromptBlocks();
        SplittableRandom random = new SplittableRandom(7);
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();

        String[] prefixes = new String[5_000];
        for (int g = 0; g < prefixes.length; g++) {
            prefixes[g] = text(random, 1_536);
        }
        List<Endpoint> pods = new ArrayList<>();
        int nextPod = 0;
        for (; nextPod < 64; nextPod++) {
            pods.add(pod(nextPod));
        }
        long heapBefore = usedAfterGc(memory);
        System.out.printf("bound: %,d entries, %,d bytes of arrays when full; heap before: %,d bytes%n",
                index.maxEntries(), index.maxFootprintBytes(), heapBefore);
        char[] tail = new char[512];
        long started = System.nanoTime();
        for (long r = 1; r <= requests; r++) {
            int group = (int) Math.min(prefixes.length - 1, Math.abs(random.nextGaussian()) * 1_200);
            for (int i = 0; i < tail.length; i++) {
                tail[i] = (char) ('a' + random.nextInt(26));
            }
            blocks.compute("llama-3.1-8b", null, prefixes[group].concat(new String(tail)));
            // a group mostly sticks to its pod, as prefix affinity makes it
            Endpoint pod = random.nextInt(10) == 0 ? pods.get(random.nextInt(pods.size()))
                    : pods.get(group % pods.size());
            index.record(blocks.hashes(), blocks.count(), pod);
            if (index.entries() > index.maxEntries()) {
                throw new IllegalStateException("bound broken at request " + r);
            }
            if (r % 1_000_000 == 0) {
                for (int k = 0; k < 8; k++) { // rolling update: 8 pods leave, 8 new ones arrive
                    pods.set(random.nextInt(pods.size()), pod(nextPod++));
                }
                index.retain(pods);
                System.out.printf("%,12d requests: %,9d entries, %3d pods tracked, %,12d bytes of arrays, "
                        + "heap %,12d bytes, %.1f s%n", r, index.entries(), index.trackedEndpoints(),
                        index.footprintBytes(), usedAfterGc(memory), (System.nanoTime() - started) / 1e9);
            }
        }
        System.out.printf("done: %,d entries (bound %,d); heap grew %,d bytes; arrays %,d bytes (bound %,d)%n",
                index.entries(), index.maxEntries(), usedAfterGc(memory) - heapBefore, index.footprintBytes(),
                index.maxFootprintBytes());
    }

    private static Endpoint pod(int i) {
        return new Endpoint("10.1." + (i >> 8 & 255) + "." + (i & 255), 8000);
    }

    private static String text(SplittableRandom random, int chars) {
        StringBuilder sb = new StringBuilder(chars);
        for (int i = 0; i < chars; i++) {
            sb.append((char) ('a' + random.nextInt(26)));
        }
        return sb.toString();
    }

    private static long usedAfterGc(MemoryMXBean memory) {
        System.gc();
        return memory.getHeapMemoryUsage().getUsed();
    }
}
