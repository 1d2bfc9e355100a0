package io.inferencegateway.simulator;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Drives one simulated Llama-3.1-8B / H100 pod in virtual time and compares what comes out with
 * published measurements of Llama-3.1-8B on one H100: decode step at batch 1 and 256 (1k context), prefill time per token, and
 * closed-loop ShareGPT-like saturation (throughput and median inter-token latency).
 */
public final class Calibration {

    /** One line of the report. */
    public record Row(String name, double anchor, double measured, String unit) {
        public double ratio() {
            return measured / anchor;
        }
    }

    /** Closed-loop clients of the ShareGPT-like run: max_num_seqs, so the pod runs full. */
    public static final int SHAREGPT_CLIENTS = 256;
    /** Prompts of the burst run, as vLLM's benchmark_serving default. */
    public static final int BURST_PROMPTS = 1000;
    private static final long SECOND = 1_000_000_000L;

    private final EngineConfig config;

    public Calibration(EngineConfig config) {
        this.config = config;
    }

    public Calibration() {
        this(EngineConfig.defaults());
    }

    /**
     * The report. The two ShareGPT measurements come from two workloads, because no single one can meet both:
     * with 256 running streams at 25 ms per token and 203 output tokens, Little's law gives at least
     * 50 req/s, so "32 req/s" is the standard burst benchmark (1000 prompts at once, duration
     * including the long-output tail) and "25 ms" the ITL of a pod kept at max_num_seqs.
     */
    public List<Row> run() {
        List<Row> rows = new ArrayList<>();
        rows.add(new Row("decode step, batch 1, 1k context", 6.9, decodeStepMillis(1), "ms"));
        rows.add(new Row("decode step, batch 256, 1k context", 27.5, decodeStepMillis(256), "ms"));
        rows.add(new Row("prefill time per uncached token", 31, prefillMicrosPerToken(), "us"));
        ShareGpt burst = shareGptBurst(BURST_PROMPTS);
        rows.add(new Row("ShareGPT-like mean input tokens", 230, burst.meanInput, "tokens"));
        rows.add(new Row("ShareGPT-like mean output tokens", 203, burst.meanOutput, "tokens"));
        rows.add(new Row("ShareGPT burst (1000 at once): throughput", 32, burst.requestsPerSecond, "req/s"));
        rows.add(new Row("ShareGPT burst (1000 at once): median ITL", 25, burst.medianItlMillis, "ms"));
        ShareGpt closed = shareGpt(SHAREGPT_CLIENTS, 60);
        rows.add(new Row("ShareGPT closed loop (256 streams): throughput", 32, closed.requestsPerSecond, "req/s"));
        rows.add(new Row("ShareGPT closed loop (256 streams): median ITL", 25, closed.medianItlMillis, "ms"));
        return rows;
    }

    /** Rows that the calibration test holds within ±25% (the others are reported for context). */
    public static boolean asserted(Row row) {
        return !row.name().equals("ShareGPT burst (1000 at once): median ITL")
                && !row.name().equals("ShareGPT closed loop (256 streams): throughput");
    }

    /**
     * vLLM's benchmark_serving way: {@code prompts} ShareGPT-like requests all at t=0; throughput is
     * prompts divided by the time the last one finishes.
     */
    public ShareGpt shareGptBurst(int prompts) {
        EngineCore engine = new EngineCore(config);
        VirtualTimeRunner runner = new VirtualTimeRunner(engine);
        SplittableRandom random = new SplittableRandom(config.seed());
        List<Double> gaps = new ArrayList<>();
        List<Double> ttfts = new ArrayList<>();
        long[] lastToken = {0};
        long in = 0;
        long out = 0;
        for (int i = 0; i < prompts; i++) {
            int[] lengths = shareGptLengths(random);
            in += lengths[0];
            out += lengths[1];
            engine.submit(null, distinctPrompt(i, lengths[0]), lengths[1], 0, new SimRequest.Listener() {
                long last;

                @Override
                public void onToken(SimRequest r, int index, String text, long now) {
                    if (index == 0) {
                        ttfts.add(now / 1e6);
                    } else {
                        gaps.add((now - last) / 1e6);
                    }
                    last = now;
                    lastToken[0] = Math.max(lastToken[0], now);
                }
            });
        }
        runner.runUntilIdle(3600 * SECOND);
        return new ShareGpt(prompts / (lastToken[0] / 1e9), median(gaps), in / (double) prompts,
                out / (double) prompts, median(ttfts));
    }

    /** ShareGPT-like lengths: log-normal, means ≈230 in / ≈203 out, vLLM's filter (in ≤ 1024, in + out ≤ 2048). */
    static int[] shareGptLengths(SplittableRandom random) {
        int in = logNormal(random, 230, 1.0, 4, 1024);
        int out = logNormal(random, 203, 1.0, 4, 2048 - in);
        return new int[] {in, out};
    }

    /** Median gap between tokens once {@code batch} requests with ~1k-token contexts all decode. */
    double decodeStepMillis(int batch) {
        EngineCore engine = new EngineCore(config);
        VirtualTimeRunner runner = new VirtualTimeRunner(engine);
        List<Double> gaps = new ArrayList<>();
        // 256 prompts prefill 8 per step (32 steps); tokens 40..56 of every request come from
        // steps where all of them decode, at contexts of ~1k tokens.
        int outputs = 160;
        for (int i = 0; i < batch; i++) {
            engine.submit(null, distinctPrompt(i, 960), outputs, 0, new SimRequest.Listener() {
                long last = -1;

                @Override
                public void onToken(SimRequest r, int index, String text, long now) {
                    if (index > 40 && index <= 56) {
                        gaps.add((now - last) / 1e6);
                    }
                    last = now;
                }
            });
        }
        runner.runUntilIdle(600 * SECOND);
        return median(gaps);
    }

    /** Marginal prefill cost: TTFT of an 8192-token prompt minus that of a 4096-token one, per token. */
    double prefillMicrosPerToken() {
        return (ttftNanos(8192) - ttftNanos(4096)) / 4096.0 / 1e3;
    }

    private long ttftNanos(int promptTokens) {
        EngineCore engine = new EngineCore(config);
        VirtualTimeRunner runner = new VirtualTimeRunner(engine);
        SimRequest r = engine.submit(null, distinctPrompt(7, promptTokens), 1, 0, null);
        runner.runUntilIdle(60 * SECOND);
        return r.firstTokenNanos() - r.arrivalNanos();
    }

    /** Result of the closed-loop run. */
    public record ShareGpt(double requestsPerSecond, double medianItlMillis, double meanInput, double meanOutput,
                           double medianTtftMillis) {
    }

    /**
     * {@code clients} closed-loop clients send ShareGPT-like requests (log-normal lengths, means
     * ≈230 in / ≈203 out) back to back; measures over {@code seconds} after a warm-up.
     */
    public ShareGpt shareGpt(int clients, int seconds) {
        EngineCore engine = new EngineCore(config);
        VirtualTimeRunner runner = new VirtualTimeRunner(engine);
        SplittableRandom random = new SplittableRandom(config.seed());
        long warmup = 20 * SECOND;
        long end = warmup + seconds * SECOND;
        long[] done = new long[1];
        long[] inSum = new long[1];
        long[] outSum = new long[1];
        List<Double> gaps = new ArrayList<>();
        List<Double> ttfts = new ArrayList<>();
        int[] promptSeq = {0};
        Runnable[] send = new Runnable[1];
        send[0] = () -> {
            int[] lengths = shareGptLengths(random);
            engine.submit(null, distinctPrompt(1_000_000 + promptSeq[0]++, lengths[0]), lengths[1], runner.now(),
                    new SimRequest.Listener() {
                        long last;

                        @Override
                        public void onToken(SimRequest r, int index, String text, long now) {
                            if (now > warmup && now <= end) {
                                if (index == 0) {
                                    ttfts.add((now - r.arrivalNanos()) / 1e6);
                                } else {
                                    gaps.add((now - last) / 1e6);
                                }
                            }
                            last = now;
                        }

                        @Override
                        public void onFinish(SimRequest r, String reason, long now) {
                            if (now > warmup && now <= end) {
                                done[0]++;
                                inSum[0] += r.promptLength();
                                outSum[0] += r.outputTokens();
                            }
                            runner.at(now, send[0]);
                        }
                    });
        };
        for (int c = 0; c < clients; c++) {
            runner.at(0, send[0]);
        }
        runner.runUntil(end);
        return new ShareGpt(done[0] / (double) seconds, median(gaps), inSum[0] / (double) done[0],
                outSum[0] / (double) done[0], median(ttfts));
    }

    /** The report as a Markdown table. */
    public static String format(List<Row> rows) {
        StringBuilder sb = new StringBuilder();
        sb.append("| quantity | published | simulator | ratio | held to ±25% |\n|---|---|---|---|---|\n");
        for (Row r : rows) {
            sb.append(String.format(Locale.ROOT, "| %s | %.1f %s | %.1f %s | %.2f | %s |%n", r.name(), r.anchor(),
                    r.unit(), r.measured(), r.unit(), r.ratio(), asserted(r) ? "yes" : "no (see note)"));
        }
        sb.append("\nNote: the two ShareGPT measurements cannot hold in one workload: 256 streams at 25 ms per token\n")
                .append("and 203 output tokens give at least 256 / (0.025 s x 203) = 50 req/s (Little's law). The\n")
                .append("32 req/s matches the burst benchmark (1000 prompts at once, vLLM benchmark_serving style,\n")
                .append("its duration including the long-output tail); 25 ms matches a pod kept at max_num_seqs.\n");
        return sb.toString();
    }

    static int logNormal(SplittableRandom random, double mean, double sigma, int min, int max) {
        double mu = Math.log(mean) - sigma * sigma / 2;
        double g = gaussian(random);
        long v = Math.round(Math.exp(mu + sigma * g));
        return (int) Math.max(min, Math.min(max, v));
    }

    private static double gaussian(SplittableRandom random) {
        double u1 = 1 - random.nextDouble();
        double u2 = random.nextDouble();
        return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
    }

    /** A prompt of {@code tokens} tokens that shares no block with other values of {@code id}. */
    static int[] distinctPrompt(long id, int tokens) {
        int[] t = new int[tokens];
        for (int i = 0; i < tokens; i++) {
            t[i] = (int) (Tokenizer.mix(id * 1_000_003L + i) & 0x7fffffff);
        }
        return t;
    }

    static double median(List<Double> values) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        double[] v = values.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(v);
        return v[v.length / 2];
    }

    public static void main(String[] args) {
        System.out.print(format(new Calibration().run()));
    }
}
