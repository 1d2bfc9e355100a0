package io.inferencegateway.lab.benchmarks;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Closed-loop load with {@code wrk} (Debian package {@code wrk}): a fixed number of keep-alive
 * connections, each sending its next request as soon as the previous answer arrived. One client
 * thread, as in the figures of issue 15.
 */
final class Wrk {

    private static final Pattern RATE = Pattern.compile("Requests/sec:\\s+([0-9.]+)");
    private static final Pattern REQUESTS = Pattern.compile("([0-9]+) requests in");
    private static final Pattern PERCENTILE = Pattern.compile("^\\s+(50|99)(?:\\.000)?%\\s+([0-9.]+)(us|ms|s)\\s*$",
            Pattern.MULTILINE);

    private Wrk() {
    }

    /** Throughput and latency percentiles of one run; latencies in milliseconds. */
    record Result(double rate, double p50, double p99, long requests) {
    }

    static boolean available() {
        for (String d : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (new File(d, "wrk").canExecute()) {
                return true;
            }
        }
        return false;
    }

    /** A Lua script that makes wrk POST {@code body} as JSON to {@code /v1/completions}. */
    static Path script(byte[] body) throws Exception {
        Path bodyFile = Files.createTempFile("wrk-body", ".json");
        Files.write(bodyFile, body);
        Path script = Files.createTempFile("wrk", ".lua");
        Files.writeString(script, """
                wrk.method = "POST"
                wrk.path = "/v1/completions"
                wrk.headers["Content-Type"] = "application/json"
                local f = assert(io.open("%s", "rb"))
                wrk.body = f:read("*a")
                f:close()
                """.formatted(bodyFile));
        return script;
    }

    static Result run(int port, Path script, int connections, int seconds) throws Exception {
        return run("http", port, script, connections, seconds);
    }

    /** @param scheme {@code http}, or {@code https} (wrk does not verify the server's certificate) */
    static Result run(String scheme, int port, Path script, int connections, int seconds) throws Exception {
        Process p = new ProcessBuilder(List.of("wrk", "-t1", "-c" + connections, "-d" + seconds + "s", "--latency",
                "-s", script.toString(), scheme + "://127.0.0.1:" + port + "/v1/completions"))
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor();
        Matcher rate = RATE.matcher(out);
        if (!rate.find() || out.contains("Non-2xx")) {
            throw new IllegalStateException("wrk failed or got errors:\n" + out);
        }
        double p50 = Double.NaN;
        double p99 = Double.NaN;
        Matcher m = PERCENTILE.matcher(out);
        while (m.find()) {
            double v = Double.parseDouble(m.group(2));
            double ms = switch (m.group(3)) {
                case "us" -> v / 1000;
                case "s" -> v * 1000;
                default -> v;
            };
            if (m.group(1).equals("50")) {
                p50 = ms;
            } else {
                p99 = ms;
            }
        }
        Matcher requests = REQUESTS.matcher(out);
        return new Result(Double.parseDouble(rate.group(1)), p50, p99,
                requests.find() ? Long.parseLong(requests.group(1)) : 0);
    }

    static String format(Result r) {
        return String.format(Locale.ROOT, "%,9.0f req/s, p50 %6.3f ms, p99 %6.3f ms", r.rate, r.p50, r.p99);
    }
}
