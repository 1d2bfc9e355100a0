package io.inferencegateway.lab.benchmarks;

import java.io.File;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@link PickLatencyBenchmark} for two builds in one JVM, for a before/after on a machine that others load: each build's
 * classes get their own class loader (the benchmark and its dependencies from the same class path), picks alternate
 * between the two in blocks, and each pick is timed in thread CPU time as well as wall time. Both builds then see the
 * same load, and CPU time leaves out the time the thread waited for a core (what makes JMH's p99 on a busy machine the
 * scheduler's rather than the pick's); it still includes what others' cache traffic costs. Not a replacement for JMH on
 * a quiet machine.
 *
 * <p>Run, with a directory of the older build's classes ({@code unzip} its jar and keep {@code io/inferencegateway}):
 * {@code java -Xmx2g -cp lab/target/test-classes io.inferencegateway.lab.benchmarks.PickCpuAbBenchmark 64 shared-prefix 40
 * 1000 /tmp/old-classes gateway/target/classes
 * lab/target/test-classes:lab/target/classes:$(cat lab/target/test-classpath.txt)} (pods, workload, blocks per build,
 * picks per block, build A, build B, the rest of the class path), optionally followed by the benchmark method timed in
 * A and in B ({@code choose}, the decision and its commit, unless given; {@code decide} times the decision alone and
 * commits it untimed after each call, in a build that has it). A build is a class path: a build whose API the current
 * benchmark does not compile against (one from before {@code SchedulingPolicy.decideDeferred}) needs its own
 * {@link PickLatencyBenchmark} compiled in front of it, e.g. {@code /tmp/old-classes:/tmp/old-bench}. The rest of the
 * class path holds this build's gateway jar too (lab/target/test-classpath.txt names it), behind each build's classes:
 * a class an older build lacks comes from this build.
 */
public final class PickCpuAbBenchmark {

    private PickCpuAbBenchmark() {
    }

    public static void main(String[] args) throws Throwable {
        int pods = Integer.parseInt(args[0]);
        String workload = args[1];
        int blocks = Integer.parseInt(args[2]);
        int block = Integer.parseInt(args[3]);
        String[] builds = {args[4], args[5]};
        String[] methods = {args.length > 7 ? args[7] : "choose", args.length > 8 ? args[8] : "choose"};
        MethodHandle[] choose = new MethodHandle[2];
        MethodHandle[] after = new MethodHandle[2];
        for (int s = 0; s < 2; s++) {
            MethodHandle[] both = benchmark(builds[s], args[6], pods, workload, methods[s]);
            choose[s] = both[0];
            after[s] = both[1];
        }
        for (int s = 0; s < 2; s++) { // warm-up, both builds
            for (int i = 0; i < 16 * block; i++) {
                Object unused = choose[s].invokeExact();
                after[s].invokeExact();
            }
        }
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long[][] cpu = new long[2][blocks * block];
        long[][] wall = new long[2][blocks * block];
        int[] taken = new int[2];
        for (int r = 0; r < blocks; r++) {
            for (int k = 0; k < 2; k++) {
                int s = (r & 1) == 0 ? k : 1 - k; // A first in even rounds, B first in odd ones
                for (int i = 0; i < block; i++) {
                    long c0 = threads.getCurrentThreadCpuTime();
                    long w0 = System.nanoTime();
                    Object unused = choose[s].invokeExact();
                    long w1 = System.nanoTime();
                    long c1 = threads.getCurrentThreadCpuTime();
                    after[s].invokeExact();
                    cpu[s][taken[s]] = c1 - c0;
                    wall[s][taken[s]++] = w1 - w0;
                }
            }
        }
        for (int s = 0; s < 2; s++) {
            String build = (s == 0 ? "A " : "B ") + builds[s] + " " + methods[s];
            print(pods, workload, build, "cpu ", cpu[s]);
            print(pods, workload, build, "wall", wall[s]);
        }
    }

    /**
     * A set-up benchmark of the build in {@code classes}, as handles on its {@code method} and on what runs untimed after
     * each call (its {@code commitPending}, or nothing in a build without one).
     */
    private static MethodHandle[] benchmark(String classes, String rest, int pods, String workload, String method)
            throws Exception {
        List<URL> urls = new ArrayList<>();
        for (String p : (classes + File.pathSeparator + rest).split(File.pathSeparator)) {
            urls.add(new File(p).toURI().toURL());
        }
        ClassLoader loader = new URLClassLoader(urls.toArray(new URL[0]), ClassLoader.getPlatformClassLoader());
        Class<?> type = loader.loadClass("io.inferencegateway.lab.benchmarks.PickLatencyBenchmark");
        Object benchmark = type.getConstructor().newInstance();
        type.getField("endpoints").setInt(benchmark, pods);
        type.getField("workload").set(benchmark, workload);
        type.getMethod("setUp").invoke(benchmark);
        Class<?> endpoint = loader.loadClass("io.inferencegateway.domain.Endpoint");
        MethodHandle timed = MethodHandles.publicLookup().findVirtual(type, method, MethodType.methodType(endpoint))
                .bindTo(benchmark).asType(MethodType.methodType(Object.class));
        MethodHandle untimed;
        try {
            untimed = MethodHandles.publicLookup().findVirtual(type, "commitPending", MethodType.methodType(void.class))
                    .bindTo(benchmark);
        } catch (NoSuchMethodException e) { // a build from before decisions were committed apart
            untimed = MethodHandles.empty(MethodType.methodType(void.class));
        }
        return new MethodHandle[] {timed, untimed};
    }

    private static void print(int pods, String workload, String build, String clock, long[] nanos) {
        long[] t = nanos.clone();
        Arrays.sort(t);
        int n = t.length;
        System.out.printf("%d pods, %s, %s, %s µs: p50 %.1f  p90 %.1f  p99 %.1f  p99.9 %.1f  (%d picks)%n", pods,
                workload, build, clock, t[n / 2] / 1e3, t[n * 9 / 10] / 1e3, t[n * 99 / 100] / 1e3,
                t[n * 999 / 1000] / 1e3, n);
    }
}
