package io.inferencegateway.lab.soak;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The gateways' resources before the load (after the warm-up) and after it, each reading taken after a full GC
 * ({@code jcmd <pid> GC.run}) and a second of quiet. A replica killed and restarted is compared with
 * its first incarnation's baseline: same jar, same config. Each reading is taken
 * from outside: fds and threads from {@code /proc/<pid>}, heap used from {@code jcmd GC.heap_info}, and the resident
 * set (heap, Netty's direct arenas, everything) from {@code /proc/<pid>/status}. Tolerances: 16 fds, 8 threads, heap
 * 1.5 × baseline + 16 MiB, resident set baseline + 64 MiB (Netty's pooled arenas keep chunks they grew to), for a replica that ran the whole
 * soak only: a restarted process filled its code cache and allocator arenas under load, not at an idle baseline.
 */
final class ResourceCheck {

    record Reading(long fds, double threads, double heap, double rss) {
        @Override
        public String toString() {
            return String.format(Locale.ROOT, "fds %d, threads %.0f, heap %.1f MiB, RSS %.1f MiB", fds, threads,
                    heap / (1 << 20), rss / (1 << 20));
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
        jcmd(pid, "GC.run");
        Thread.sleep(1_000);
        long fds;
        try (Stream<Path> s = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            fds = s.count();
        }
        long threads = 0;
        long rss = 0;
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
            if (line.startsWith("Threads:")) {
                threads = Long.parseLong(line.substring(8).trim());
            } else if (line.startsWith("VmRSS:")) {
                rss = Long.parseLong(line.substring(6).trim().split("\\s+")[0]) * 1024;
            }
        }
        Matcher used = HEAP_USED.matcher(jcmd(pid, "GC.heap_info"));
        long heap = used.find() ? Long.parseLong(used.group(1)) * 1024 : -1;
        return new Reading(fds, threads, heap, rss);
    }

    private static final Pattern HEAP_USED = Pattern.compile("used (\\d+)K");

    private static String jcmd(long pid, String command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                Long.toString(pid), command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        p.waitFor();
        return out;
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
            if (replicas.incarnation(i) == 0) { // a new process's JIT code and arenas grow under load, leak or not
                table.check(Soak.RESOURCES, e.rss() <= b.rss() + 64 * MIB, where + ": resident memory");
            }
            note.append(i == 0 ? "" : "; ").append("r").append(i).append(": ").append(b.fds()).append("→")
                    .append(e.fds()).append(" fds, ").append(Math.round(b.threads())).append("→")
                    .append(Math.round(e.threads())).append(" threads, heap ")
                    .append(Math.round(b.heap() / MIB)).append("→").append(Math.round(e.heap() / MIB)).append(" MiB, RSS ")
                    .append(Math.round(b.rss() / MIB)).append("→").append(Math.round(e.rss() / MIB)).append(" MiB");
        }
        table.note(Soak.RESOURCES, note.toString());
    }

}
