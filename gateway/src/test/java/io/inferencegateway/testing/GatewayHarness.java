package io.inferencegateway.testing;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.awaitility.Awaitility;

import io.inferencegateway.camel.GatewayServer;
import io.inferencegateway.simulator.SimulatedFleet;

/** Runs the real gateway (Camel Main, the YAML routes, netty-http) in-process on a free port. */
public final class GatewayHarness implements AutoCloseable {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private final GatewayServer server;
    private final int port;
    private final Path configFile;
    private final boolean ownsConfigFile;

    private GatewayHarness(GatewayServer server, int port, Path configFile, boolean ownsConfigFile) {
        this.server = server;
        this.port = port;
        this.configFile = configFile;
        this.ownsConfigFile = ownsConfigFile;
    }

    public static GatewayHarness start(String configYaml) throws Exception {
        return start(configYaml, Map.of());
    }

    public static GatewayHarness start(String configYaml, Map<String, String> properties) throws Exception {
        Path file = Files.createTempFile("gateway-config", ".yaml");
        Files.writeString(file, configYaml);
        int port = freePort();
        return new GatewayHarness(GatewayServer.start(file, port, properties), port, file, true);
    }

    /** Starts the gateway with the routes of {@code routes} (a directory, maybe watched) instead of the jar's. */
    public static GatewayHarness start(String configYaml, GatewayServer.Routes routes) throws Exception {
        Path file = Files.createTempFile("gateway-config", ".yaml");
        Files.writeString(file, configYaml);
        int port = freePort();
        return new GatewayHarness(GatewayServer.start(file, port, Map.of(), routes), port, file, true);
    }

    /** Starts the gateway on a config file the test owns (and may change while the gateway runs). */
    public static GatewayHarness startWithConfigFile(Path file, Map<String, String> properties) throws Exception {
        int port = freePort();
        return new GatewayHarness(GatewayServer.start(file, port, properties), port, file, false);
    }

    /** A one-pool config for {@code model} over the given endpoints. */
    public static String config(String model, String policy, String... endpoints) {
        StringBuilder sb = new StringBuilder("""
                apiVersion: inferencegateway.io/v1alpha1
                kind: InferenceGatewayConfig
                metadata: {name: test}
                spec:
                  schedulers:
                    - name: pool
                      modelName: %s
                      loraAdapters: [%s-adapter]
                      policy: %s
                      routeTimeout: 2s
                      endpoints:
                """.formatted(model, model, policy));
        for (String e : endpoints) {
            sb.append("        - \"").append(e).append("\"\n");
        }
        return sb.toString();
    }

    /** A one-pool config named {@code llama} in front of a simulated fleet, with any extra scheduler lines. */
    public static String fleetConfig(SimulatedFleet fleet, String model, String... extraLines) {
        return fleetConfig(model, fleet.adapterNames(), fleet.endpoints(), extraLines);
    }

    /** A one-pool config named {@code llama} for {@code model} and its adapters over some endpoints. */
    public static String fleetConfig(String model, List<String> adapters, List<String> endpoints, String... extraLines) {
        StringBuilder sb = new StringBuilder("""
                kind: InferenceGatewayConfig
                spec:
                  schedulers:
                    - name: llama
                      modelName: %s
                      loraAdapters: [%s]
                      endpoints: [%s]
                """.formatted(model, String.join(", ", adapters), quotedList(endpoints)));
        for (String line : extraLines) {
            sb.append("      ").append(line).append('\n');
        }
        return sb.toString();
    }

    /** The items as a YAML flow list's contents: {@code "a", "b"}. */
    public static String quotedList(List<String> items) {
        return String.join(", ", items.stream().map(e -> "\"" + e + "\"").toList());
    }

    public static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    public int port() {
        return port;
    }

    /**
     * The value of the first series of {@code name} on the gateway's {@code /metrics} whose labels contain {@code label};
     * NaN when there is none.
     */
    public double metric(String name, String label) throws IOException, InterruptedException {
        String text = HTTP.send(HttpRequest.newBuilder(URI.create(baseUrl() + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        for (String line : text.lines().toList()) {
            if (line.startsWith(name + "{") && line.contains(label)) {
                return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return Double.NaN;
    }

    /**
     * Waits until the pool {@code llama} has fresh metrics from {@code pods} pods: a request before that is placed
     * without them (among the pods scraped so far, or by the stale fallback, which predicts nothing).
     */
    public void awaitScraped(int pods) {
        Awaitility.await("the gateway scrapes every pod").atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(20))
                .until(() -> metric("inference_pool_ready_pods", "name=\"llama\"") >= pods);
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    public GatewayServer server() {
        return server;
    }

    public Path configFile() {
        return configFile;
    }

    @Override
    public void close() throws IOException {
        server.close();
        if (ownsConfigFile) {
            Files.deleteIfExists(configFile);
        }
    }
}
