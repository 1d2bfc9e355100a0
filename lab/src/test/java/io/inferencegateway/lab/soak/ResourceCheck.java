package io.inferencegateway.lab.soak;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * The gateways' resources before the load (after the warm-up) and after it, each reading taken after a full GC
 * ({@code jcmd <pid> GC.run}) and a second of quiet: open file descriptors ({@code /proc/<pid>/fd}), live threads,
 * heap used and direct buffers (the gateway's {@code jvm_*} meters). A replica killed and restarted is compared with
 * its first incarnation's baseline: same jar, same config. Tolerances: 16 fds, 8 threads, heap 1.5 × baseline + 16 MiB,
 * direct memory baseline + 16 MiB.
 */
final class ResourceCheck {

    record Reading(long fds, double threads, double heap, double direct) {
        @Override
        public String toString() {
            return String.format(Locale.ROOT, "fds %d, threads %.0f, heap %.1f MiB, direct %.1f MiB", fds, threads,
                    heap / (1 << 20), direct / (1 << 20));
        }
    }

    private static final long MIB = 1 << 20;

    private final Reading[] baseline;

    private ResourceCheck(Reading[] baseline) {
        this.baseline = baseline;
    }

    static ResourceCheck baseline(SoakReplicas replicas) throws IOException, InterruptedException {
        Reading[] r = new Reading[replicas.size()];
        for (int i = 0; i < r.length; i++) {
            r[i] = read(replicas, i);
        }
        return new ResourceCheck(r);
    }

    static Reading read(SoakReplicas replicas, int i) throws IOException, InterruptedException {
        long pid = replicas.pid(i);
        Process gc = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                Long.toString(pid), "GC.run").redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        gc.waitFor();
        Thread.sleep(1_000);
        long fds;
        try (Stream<Path> s = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            fds = s.count();
        }
        GatewayMetrics m = GatewayMetrics.read(replicas.baseUrl(i));
        return new Reading(fds, m.sum("jvm_threads_live_threads"),
                m.sum("jvm_memory_used_bytes", l -> "heap".equals(l.get("area"))),
                m.sum("jvm_buffer_memory_used_bytes", l -> "direct".equals(l.get("id"))));
    }

    void verify(InvariantTable table, SoakReplicas replicas) throws IOException, InterruptedException {
        StringBuilder note = new StringBuilder();
        for (int i = 0; i < baseline.length; i++) {
            Reading b = baseline[i];
            Reading e = read(replicas, i);
            String where = "replica " + i + " (incarnation " + replicas.incarnation(i) + "): baseline " + b + ", end "
                    + e;
            table.check(Soak.RESOURCES, e.fds() <= b.fds() + 16, where + ": file descriptors");
            table.check(Soak.RESOURCES, e.threads() <= b.threads() + 8, where + ": threads");
            table.check(Soak.RESOURCES, e.heap() <= 1.5 * b.heap() + 16 * MIB, where + ": heap");
            table.check(Soak.RESOURCES, e.direct() <= b.direct() + 16 * MIB, where + ": direct memory");
            note.append(i == 0 ? "" : "; ").append("r").append(i).append(": ").append(b.fds()).append("→")
                    .append(e.fds()).append(" fds, ").append(Math.round(b.threads())).append("→")
                    .append(Math.round(e.threads())).append(" threads, heap ")
                    .append(Math.round(b.heap() / MIB)).append("→").append(Math.round(e.heap() / MIB)).append(" MiB");
        }
        table.note(Soak.RESOURCES, note.toString());
    }

}
