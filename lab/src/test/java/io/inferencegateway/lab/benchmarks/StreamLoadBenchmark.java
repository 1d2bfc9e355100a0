package io.inferencegateway.lab.benchmarks;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Efficiency benchmark of the simulator (not a test): holds {@code streams} concurrent SSE chat
 * streams against {@code pods} pods of a simulator running in another process, each stream
 * starting a new request when its previous one ends, and reports what the clients saw (tokens/s,
 * inter-token latency, TTFT) next to the simulator process's CPU time read from /proc.
 *
 * <pre>
 * mvn -B -q package -DskipTests
 * java -jar target/inference-gateway.jar simulate --pods 8 --base-port 18000 --admin-port 18100 &amp;
 * java -cp lab/target/test-classes:lab/target/classes:$(cat lab/target/test-classpath.txt) \
 *      io.inferencegateway.lab.benchmarks.StreamLoadBenchmark 127.0.0.1 18000 8 500 60 $! 18100
 * </pre>
 * Arguments: host, base port, pods, streams, seconds, simulator pid (for CPU), [admin port, for the pods'
 * timeline: model time lost to late wake-ups], [prompt chars, default 920 = 230 tokens], [max_tokens, default 203].
 */
public final class StreamLoadBenchmark {

    /** Latency histogram with 0.1 ms resolution up to 10 s (bounded memory). */
    static final class Latencies {
        private final AtomicLongArray counts = new AtomicLongArray(100_001);
        private final AtomicLong n = new AtomicLong();

        void add(long nanos) {
            counts.incrementAndGet((int) Math.min(100_000, nanos / 100_000));
            n.incrementAndGet();
        }

        double percentileMillis(double p) {
            long target = (long) Math.ceil(p * n.get());
            long seen = 0;
            for (int i = 0; i < counts.length(); i++) {
                seen += counts.get(i);
                if (seen >= target && target > 0) {
                    return i / 10.0;
                }
            }
            return Double.NaN;
        }

        long count() {
            return n.get();
        }
    }

    public static void main(String[] args) throws Exception {
        String host = args[0];
        int basePort = Integer.parseInt(args[1]);
        int pods = Integer.parseInt(args[2]);
        int streams = Integer.parseInt(args[3]);
        int seconds = Integer.parseInt(args[4]);
        long pid = Long.parseLong(args[5]);
        int adminPort = args.length > 6 ? Integer.parseInt(args[6]) : -1;
        int promptChars = args.length > 7 ? Integer.parseInt(args[7]) : 920;
        int maxTokens = args.length > 8 ? Integer.parseInt(args[8]) : 203;

        HttpClient client = HttpClient.newBuilder().executor(Executors.newFixedThreadPool(2))
                .connectTimeout(Duration.ofSeconds(10)).build();
        Latencies itl = new Latencies();
        Latencies ttft = new Latencies();
        AtomicLong tokens = new AtomicLong();
        AtomicLong completed = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        long warmupEnd = System.nanoTime() + 10_000_000_000L;
        long end = warmupEnd + seconds * 1_000_000_000L;
        CountDownLatch done = new CountDownLatch(streams);

        for (int s = 0; s < streams; s++) {
            int stream = s;
            Runnable[] next = new Runnable[1];
            next[0] = () -> {
                if (System.nanoTime() >= end) {
                    done.countDown();
                    return;
                }
                String content = ("stream " + stream + " " + System.nanoTime() + " ").repeat(promptChars / 20 + 1)
                        .substring(0, promptChars);
                String body = "{\"messages\":[{\"role\":\"user\",\"content\":\"" + content + "\"}],\"max_tokens\":"
                        + maxTokens + ",\"stream\":true}";
                URI uri = URI.create("http://" + host + ":" + (basePort + stream % pods) + "/v1/chat/completions");
                long sent = System.nanoTime();
                long[] last = {0};
                client.sendAsync(HttpRequest.newBuilder(uri).header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                        HttpResponse.BodyHandlers.fromLineSubscriber(new Flow.Subscriber<String>() {
                            @Override
                            public void onSubscribe(Flow.Subscription subscription) {
                                subscription.request(Long.MAX_VALUE);
                            }

                            @Override
                            public void onNext(String line) {
                                if (!line.startsWith("data: {") || line.contains("\"role\"")) {
                                    return;
                                }
                                long now = System.nanoTime();
                                boolean measured = now > warmupEnd && now < end;
                                if (last[0] == 0) {
                                    if (measured) {
                                        ttft.add(now - sent);
                                    }
                                } else if (measured) {
                                    itl.add(now - last[0]);
                                }
                                if (measured) {
                                    tokens.incrementAndGet();
                                }
                                last[0] = now;
                            }

                            @Override
                            public void onError(Throwable t) {
                            }

                            @Override
                            public void onComplete() {
                            }
                        }))
                        .whenComplete((r, t) -> {
                            if (t != null || r.statusCode() != 200) {
                                errors.incrementAndGet();
                            } else if (System.nanoTime() < end) {
                                completed.incrementAndGet();
                            }
                            next[0].run();
                        });
            };
            next[0].run();
        }

        Thread.sleep(Math.max(0, (warmupEnd - System.nanoTime()) / 1_000_000));
        double[] model0 = modelSums(client, host, basePort, pods);
        long[] timeline0 = timeline(client, host, adminPort);
        long cpu0 = cpuTicks(pid);
        long self0 = cpuTicks(ProcessHandle.current().pid());
        long t0 = System.nanoTime();
        Thread.sleep(seconds * 1000L);
        long cpu1 = cpuTicks(pid);
        long self1 = cpuTicks(ProcessHandle.current().pid());
        double[] model1 = modelSums(client, host, basePort, pods);
        long[] timeline1 = timeline(client, host, adminPort);
        double wall = (System.nanoTime() - t0) / 1e9;
        double cpuSeconds = (cpu1 - cpu0) / 100.0;
        done.await();
        System.out.printf(Locale.ROOT, "streams %d, pods %d, window %.0f s%n", streams, pods, wall);
        System.out.printf(Locale.ROOT, "requests completed %d (%.1f req/s), errors %d%n", completed.get(),
                completed.get() / wall, errors.get());
        System.out.printf(Locale.ROOT, "tokens streamed %d (%.0f tokens/s)%n", tokens.get(), tokens.get() / wall);
        System.out.printf(Locale.ROOT, "client ITL p50 %.1f ms, p90 %.1f ms, p99 %.1f ms (%d gaps)%n",
                itl.percentileMillis(0.5), itl.percentileMillis(0.9), itl.percentileMillis(0.99), itl.count());
        System.out.printf(Locale.ROOT, "client TTFT p50 %.1f ms, p99 %.1f ms%n", ttft.percentileMillis(0.5),
                ttft.percentileMillis(0.99));
        System.out.printf(Locale.ROOT, "simulator CPU %.1f s in %.1f s = %.0f%% of one core (%.0f%% of %d cores)%n",
                cpuSeconds, wall, 100 * cpuSeconds / wall, 100 * cpuSeconds / wall / Runtime.getRuntime()
                        .availableProcessors(), Runtime.getRuntime().availableProcessors());
        System.out.printf(Locale.ROOT, "load process CPU %.0f%% of one core%n", (self1 - self0) / 100.0 / wall * 100);
        System.out.printf(Locale.ROOT, "model-time (from /metrics) mean ITL %.1f ms, mean TTFT %.1f ms%n",
                1000 * (model1[0] - model0[0]) / (model1[1] - model0[1]),
                1000 * (model1[2] - model0[2]) / (model1[3] - model0[3]));
        if (adminPort >= 0) {
            long steps = timeline1[0] - timeline0[0];
            long late = timeline1[1] - timeline0[1];
            double lost = (timeline1[2] - timeline0[2]) / 1000.0;
            System.out.printf(Locale.ROOT, "pod steps %d, late starts %d (%.1f%%), model time lost %.1f s of %.0f pod-seconds "
                    + "(%.1f%%)%n", steps, late, 100.0 * late / steps, lost, wall * pods, 100 * lost / (wall * pods));
        }
        System.exit(0);
    }

    /** Fleet-wide steps, late steps and lost milliseconds from the admin API (zeros without one). */
    static long[] timeline(HttpClient client, String host, int adminPort) throws Exception {
        long[] sums = new long[3];
        if (adminPort < 0) {
            return sums;
        }
        String body = client.send(HttpRequest.newBuilder(URI.create("http://" + host + ":" + adminPort + "/pods")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        String[] keys = {"\"steps\":", "\"lateSteps\":", "\"lostMillis\":"};
        for (int k = 0; k < keys.length; k++) {
            int at = 0;
            while ((at = body.indexOf(keys[k], at)) >= 0) {
                at += keys[k].length();
                int end = at;
                while (end < body.length() && Character.isDigit(body.charAt(end))) {
                    end++;
                }
                sums[k] += Long.parseLong(body.substring(at, end));
            }
        }
        return sums;
    }

    /** Sum over pods of ITL sum, ITL count, TTFT sum, TTFT count, from their /metrics. */
    static double[] modelSums(HttpClient client, String host, int basePort, int pods) throws Exception {
        String[] names = {"vllm:inter_token_latency_seconds_sum", "vllm:inter_token_latency_seconds_count",
            "vllm:time_to_first_token_seconds_sum", "vllm:time_to_first_token_seconds_count"};
        double[] sums = new double[names.length];
        for (int p = 0; p < pods; p++) {
            String text = client.send(HttpRequest.newBuilder(URI.create("http://" + host + ":" + (basePort + p)
                    + "/metrics")).build(), HttpResponse.BodyHandlers.ofString()).body();
            for (String line : text.split("\n")) {
                for (int i = 0; i < names.length; i++) {
                    if (line.startsWith(names[i] + "{")) {
                        sums[i] += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
                    }
                }
            }
        }
        return sums;
    }

    /** utime + stime of a process, in clock ticks (100 per second on Linux). */
    static long cpuTicks(long pid) throws Exception {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }
}
