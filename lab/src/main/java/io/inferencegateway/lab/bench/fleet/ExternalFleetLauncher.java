package io.inferencegateway.lab.bench.fleet;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The "fleet" of servers a user runs: no process is started, the given endpoints are the pods. Every run gets the
 * same servers as they are, caches and all; the only thing the bench does between runs is wait (at most
 * {@code settle}) until the servers' metrics show no request still running from the run before, so that one policy's
 * stragglers do not queue ahead of the next one's traffic.
 *
 * <p>Per-pod samples come from each server's own Prometheus text, counted from the moment the run's fleet was taken;
 * the bench takes them every {@link #SAMPLE_EVERY} rather than ten times a second as from the simulator.
 */
public final class ExternalFleetLauncher implements FleetLauncher {

    /**
     * Wall time between two of the bench's own samples of the servers' metrics while a run goes on: the gateway
     * scrapes them too, and a CPU server's metrics endpoint competes with its generation.
     */
    public static final Duration SAMPLE_EVERY = Duration.ofSeconds(1);
    private static final Duration POLL = Duration.ofMillis(500);

    private final ExternalServers servers;
    private final Duration settle;
    private final PrintStream log;
    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2))
            .version(HttpClient.Version.HTTP_1_1).build();
    private int runs;

    /**
     * @param settle longest wait, before each run but the first, for the servers to finish what earlier runs left
     */
    public ExternalFleetLauncher(ExternalServers servers, Duration settle, PrintStream log) {
        this.servers = servers;
        this.settle = settle;
        this.log = log;
    }

    /** The user's servers in place of the scenario's simulated pods, serving the scenario's model, in real time. */
    @Override
    public FleetSpec fleetFor(FleetSpec scenarioFleet) {
        return FleetSpec.onServers(servers, scenarioFleet);
    }

    @Override
    public Fleet start(FleetSpec spec, long seed) throws InterruptedException {
        if (runs++ > 0) {
            awaitIdle();
        }
        List<ServerReading> baseline = read();
        return new Fleet() {
            @Override
            public List<InetSocketAddress> endpoints() {
                return servers.endpoints();
            }

            @Override
            public List<PodSample> sample() {
                List<ServerReading> readings = read();
                List<PodSample> samples = new ArrayList<>();
                for (int i = 0; i < readings.size(); i++) {
                    samples.add(readings.get(i).since(baseline.get(i)));
                }
                return samples;
            }

            @Override
            public int inject(PodFault fault) {
                throw new UnsupportedOperationException("the bench cannot inject faults into servers it does not "
                        + "run (--endpoints)");
            }

            @Override
            public void close() {
                // the servers are the user's: they keep running, and keep their caches
            }
        };
    }

    /** Waits until every server that says so has nothing running or waiting, at most {@link #settle}. */
    private void awaitIdle() throws InterruptedException {
        long deadline = System.nanoTime() + settle.toNanos();
        boolean told = false;
        while (true) {
            double inFlight = read().stream().mapToDouble(ServerReading::inFlight).filter(v -> !Double.isNaN(v)).sum();
            if (inFlight == 0) {
                return;
            }
            if (System.nanoTime() > deadline) {
                log.printf(Locale.ROOT, "warning: the servers still hold %.0f requests after %.1f s; starting the "
                        + "next run anyway%n", inFlight, settle.toMillis() / 1000.0);
                return;
            }
            if (!told) {
                log.printf(Locale.ROOT, "waiting for the servers to finish %.0f requests left from the last run%n",
                        inFlight);
                told = true;
            }
            Thread.sleep(POLL.toMillis()); // pacing a poll of servers the bench does not control
        }
    }

    private List<ServerReading> read() {
        List<ServerReading> readings = new ArrayList<>();
        for (InetSocketAddress endpoint : servers.endpoints()) {
            readings.add(read(endpoint));
        }
        return readings;
    }

    private ServerReading read(InetSocketAddress endpoint) {
        URI uri = URI.create("http://" + ExternalServers.name(endpoint) + servers.engine().metricsPath());
        try {
            HttpResponse<String> response = client.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(2))
                    .GET().build(), HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200 ? servers.engine().read(response.body()) : ServerReading.UNKNOWN;
        } catch (IOException e) {
            return ServerReading.UNKNOWN;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ServerReading.UNKNOWN;
        }
    }
}
