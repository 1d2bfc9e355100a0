package io.inferencegateway.lab.bench.load;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.inferencegateway.lab.bench.fleet.FleetSpec;

/**
 * Short requests sent through the gateway before a measured run and left out of it, so that no policy pays for a cold
 * start: the gateway process is new every run, and the simulated pods and this process's load generator are cold in
 * the first run of a bench only, which made the first policy's early requests slow (seconds at p99 on turn 1 of the
 * conversations scenario, for whichever policy ran first). Their request ids start with {@link #REQUEST_ID_PREFIX}, and
 * the reports read no access-log line of theirs. Simulated fleets only: servers a user runs ({@code --endpoints}) get
 * the run's requests alone, as their own counters report them.
 */
public final class WarmUp {

    /** Requests per run, spread over the gateway's replicas. */
    public static final int REQUESTS = 160;
    public static final String REQUEST_ID_PREFIX = "warm-up-";
    private static final int CONCURRENCY = 16;
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private WarmUp() {
    }

    /**
     * On a simulated {@code fleet}: sends {@link #REQUESTS} streamed chat requests of a few tokens for its model,
     * {@value #CONCURRENCY} at a time, round-robin over the gateway's {@code targets}, and waits for them. On servers a
     * user runs, nothing.
     */
    public static void run(FleetSpec fleet, List<InetSocketAddress> targets) throws InterruptedException {
        if (fleet.isExternal()) {
            return;
        }
        String model = fleet.modelName();
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        for (int start = 0; start < REQUESTS; start += CONCURRENCY) {
            List<CompletableFuture<HttpResponse<Void>>> wave = new ArrayList<>();
            for (int i = start; i < Math.min(REQUESTS, start + CONCURRENCY); i++) {
                InetSocketAddress target = targets.get(i % targets.size());
                String body = "{\"model\":\"" + model + "\",\"stream\":true,\"max_tokens\":4,\"messages\":[{\"role\":"
                        + "\"user\",\"content\":\"Warm-up request " + i + ": say hello.\"}]}";
                HttpRequest request = HttpRequest.newBuilder(URI.create("http://" + target.getHostString() + ":"
                                + target.getPort() + "/v1/chat/completions"))
                        .timeout(TIMEOUT).header("content-type", "application/json")
                        .header("x-request-id", REQUEST_ID_PREFIX + i)
                        .POST(HttpRequest.BodyPublishers.ofString(body)).build();
                wave.add(client.sendAsync(request, HttpResponse.BodyHandlers.discarding()));
            }
            for (CompletableFuture<HttpResponse<Void>> f : wave) {
                try {
                    f.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
                } catch (ExecutionException | TimeoutException e) {
                    // a warm-up that failed warmed what it reached; the run itself reports errors
                }
            }
        }
    }
}
