package io.inferencegateway.benchmarks;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Arrays;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.inferencegateway.lab.simulator.EngineConfig;
import io.inferencegateway.lab.simulator.FleetOptions;
import io.inferencegateway.lab.simulator.SimulatedFleet;

/**
 * What keeping the metrics of a large fleet fresh costs: the gateway from the jar in front of {@code pods} idle
 * simulated vLLM pods (default 512) in one pool, at the default scrape interval (50 ms) and staleness threshold
 * (200 ms). Over the measured window it reports the gateway process's CPU (in cores: CPU-seconds per second, with no
 * inference traffic, so it is the scraping), the scrapes per second by result, and the oldest pod reading seen in
 * the gateway's own {@code inference_pool_per_pod_metrics_age_seconds}, read once a second: the staleness bound holds
 * while that stays under the threshold.
 *
 * <pre>
 * java -cp target/inference-gateway.jar:target/test-classes io.inferencegateway.benchmarks.ScrapeCostBenchmark [pods] [seconds]
 * </pre>
 */
public final class ScrapeCostBenchmark {

    private static final Pattern AGE = Pattern.compile(
            "^inference_pool_per_pod_metrics_age_seconds\\{[^}]*} ([0-9.eE+-]+|NaN)$", Pattern.MULTILINE);
    private static final Pattern SCRAPES = Pattern.compile(
            "^inference_gateway_metrics_scrapes_total\\{[^}]*result=\"(\\w+)\"[^}]*} ([0-9.eE+]+)$", Pattern.MULTILINE);

    private ScrapeCostBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int pods = args.length > 0 ? Integer.parseInt(args[0]) : 512;
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 30;
        String model = EngineConfig.DEFAULT_MODEL;
        try (SimulatedFleet fleet = SimulatedFleet.start(FleetOptions.builder().pods(pods).model(model).build());
                ProxyOverheadBenchmark.GatewayProcess gateway = ProxyOverheadBenchmark.GatewayProcess.start(
                        fleet.endpoints(), model, "", "scrape-cost-gateway")) {
            HttpClient http = HttpClient.newHttpClient();
            URI metrics = URI.create("http://127.0.0.1:" + gateway.port + "/metrics");
            System.out.printf(Locale.ROOT, "%d idle simulated pods, default interval; warming up for 20 s ...%n", pods);
            Thread.sleep(20_000);
            double[] before = scrapes(http, metrics);
            long cpu0 = gateway.cpuNanos();
            long t0 = System.nanoTime();
            double[] oldest = new double[seconds];
            int unread = 0;
            for (int s = 0; s < seconds; s++) {
                Thread.sleep(1000);
                String text = get(http, metrics);
                Matcher m = AGE.matcher(text);
                double max = 0;
                int seen = 0;
                while (m.find()) {
                    seen++;
                    double v = m.group(1).equals("NaN") ? Double.POSITIVE_INFINITY : Double.parseDouble(m.group(1));
                    max = Math.max(max, v);
                }
                unread += pods - seen;
                oldest[s] = max;
            }
            long cpu = gateway.cpuNanos() - cpu0;
            double wall = (System.nanoTime() - t0) / 1e9;
            double[] after = scrapes(http, metrics);
            Arrays.sort(oldest);
            System.out.printf(Locale.ROOT, "load average %s%n", ProxyOverheadBenchmark.loadAverage());
            System.out.printf(Locale.ROOT, "gateway CPU: %.2f cores (%.1f CPU-s in %.1f s), %.1f µs per scrape%n",
                    cpu / 1e9 / wall, cpu / 1e9, wall, cpu / 1e3 / Math.max(1, after[0] - before[0]));
            System.out.printf(Locale.ROOT, "scrapes/s: succeeded %.0f (interval target %d), skipped_busy %.0f, failed %.0f, timed_out %.0f%n",
                    (after[0] - before[0]) / wall, pods * 20, (after[1] - before[1]) / wall, (after[2] - before[2]) / wall,
                    (after[3] - before[3]) / wall);
            System.out.printf(Locale.ROOT, "oldest pod reading per second: median %.0f ms, max %.0f ms (threshold 200 ms)%s%n",
                    oldest[seconds / 2] * 1000, oldest[seconds - 1] * 1000,
                    unread > 0 ? ", pods missing from /metrics: " + unread : "");
        }
    }

    /** Scrape counts so far: succeeded, skipped_busy, failed, timed_out. */
    private static double[] scrapes(HttpClient http, URI metrics) throws Exception {
        double[] out = new double[4];
        Matcher m = SCRAPES.matcher(get(http, metrics));
        while (m.find()) {
            int i = switch (m.group(1)) {
                case "succeeded" -> 0;
                case "skipped_busy" -> 1;
                case "failed" -> 2;
                default -> 3;
            };
            out[i] += Double.parseDouble(m.group(2));
        }
        return out;
    }

    private static String get(HttpClient http, URI uri) throws Exception {
        return http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString()).body();
    }
}
