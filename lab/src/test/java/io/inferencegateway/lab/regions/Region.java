package io.inferencegateway.lab.regions;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import io.inferencegateway.lab.regions.DelayProxy.CutMode;
import io.inferencegateway.simulator.FleetOptions;

/**
 * One region of the global tier's end-to-end tests: in a namespace of its own ({@link RegionNamespace}), N simulated
 * vLLM pods (the runnable jar's {@code simulate}, ports {@value RegionSpec#POD_BASE_PORT}+i, fault-injection admin API
 * on {@value RegionSpec#POD_ADMIN_PORT}) and a gateway in front of them ({@code serve --config gateway.yaml}, port
 * {@value RegionSpec#GATEWAY_PORT}), seen from the host through a {@link DelayProxy}: {@link #baseUrl()} is the host
 * end of that wide-area link, {@code http://127.0.0.1:<port>}. The gateway can be killed and restarted, the link made
 * slow, cut and restored. Logs (both processes, the config) are in {@code target/regions/<name>/}.
 *
 * <pre>{@code
 * try (Region east = Region.start(RegionSpec.of("east", 1).withPods(2).withLinkDelay(Duration.ofMillis(40)))) {
 *     OpenAIClient client = OpenAIOkHttpClient.builder().baseUrl(east.baseUrl() + "/v1").apiKey("unused").build();
 *     ...
 *     east.cutLink(CutMode.BLACKHOLE);   // or east.killGateway(); east.restartGateway();
 * }
 * }</pre>
 *
 * <p>Start-up is class loading, so it follows the CPU the box has left. Measured on the 2-core box with
 * {@link RegionSpec#SMALL_JVM}: at a load average of ~5, a region from nothing to a ready gateway in 4.5 s, two regions
 * side by side in 4.7 s, a gateway restart in 4.1 s; while other builds kept the load at 7-17, 9-12 s, 14-24 s and
 * 6-9 s. A gateway alone is ready in about 3 s (4 s with the default JIT; an AppCDS archive would save ~0.5 s more). The tests print
 * {@link #startupTime()} and what {@link #restartGateway()} returns; {@link RegionSpec#readyTimeout()} allows 120 s.
 * Memory after a few requests: the pods' JVM ~140 MB resident, the gateway's ~215 MB, so ~350 MB a region.
 */
public final class Region implements AutoCloseable {

    private final RegionSpec spec;
    private final RegionNamespace namespace;
    private final Path config;
    private RegionProcess pods;
    private RegionProcess gateway;
    private DelayProxy link;
    private Duration startupTime;

    private Region(RegionSpec spec, RegionNamespace namespace, Path config) {
        this.spec = spec;
        this.namespace = namespace;
        this.config = config;
    }

    /** Makes the namespace, starts the pods and the gateway side by side, and returns once the gateway is ready. */
    public static Region start(RegionSpec spec) throws IOException {
        long began = System.nanoTime();
        Path logDir = spec.logRoot().resolve(spec.name());
        clearLogs(logDir);
        RegionNamespace namespace = RegionNamespace.create(spec.name(), spec.index(), logDir);
        Region region = new Region(spec, namespace, logDir.resolve("gateway.yaml"));
        try {
            Files.writeString(region.config, spec.renderGatewayConfig(region.podEndpointsInside()));
            if (spec.pods() > 0) {
                region.pods = namespace.start("pods", region.podsCommand());
            }
            region.gateway = namespace.start("gateway", region.gatewayCommand());
            for (int i = 0; i < spec.pods(); i++) {
                namespace.awaitPort(region.pods, RegionSpec.POD_BASE_PORT + i, spec.readyTimeout());
            }
            region.awaitGatewayReady();
            region.link = DelayProxy.start(spec.name(), new InetSocketAddress(spec.linkListenHost(), 0),
                    region.gatewayAddressInside(), spec.linkDelay());
        } catch (IOException | RuntimeException e) {
            region.close();
            throw e;
        }
        region.startupTime = Duration.ofNanos(System.nanoTime() - began);
        return region;
    }

    /**
     * Starts several regions side by side (their JVMs start together, so three take little longer than one); if one
     * fails, the others are closed and the first failure is thrown.
     */
    public static List<Region> startAll(List<RegionSpec> specs) throws IOException, InterruptedException {
        ExecutorService starter = Executors.newFixedThreadPool(specs.size(), r -> {
            Thread t = new Thread(r, "region-start");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<Region>> starting = new ArrayList<>();
            for (RegionSpec spec : specs) {
                starting.add(starter.submit(() -> start(spec)));
            }
            List<Region> started = new ArrayList<>();
            Exception failure = null;
            for (Future<Region> f : starting) {
                try {
                    started.add(f.get());
                } catch (ExecutionException e) {
                    failure = failure != null ? failure : (Exception) e.getCause();
                }
            }
            if (failure != null) {
                started.forEach(Region::close);
                if (failure instanceof IOException io) {
                    throw io;
                }
                throw failure instanceof RuntimeException r ? r : new IllegalStateException(failure);
            }
            return started;
        } finally {
            starter.shutdownNow();
        }
    }

    /**
     * One scheduler for the spec's model and adapters, over the given pods, gpu-aware, scraping every 50 ms: the
     * config a region's gateway runs unless {@link RegionSpec#withGatewayConfig} says otherwise.
     */
    public static String defaultGatewayConfig(RegionSpec spec, List<String> podEndpoints) {
        List<String> adapters = FleetOptions.adapterNames(spec.model(), spec.loras());
        String adapterLine = adapters.isEmpty() ? "" : "      loraAdapters: [" + String.join(", ", adapters) + "]\n";
        return """
                apiVersion: inferencegateway.io/v1alpha1
                kind: InferenceGatewayConfig
                metadata: {name: %s}
                spec:
                  schedulers:
                    - name: %s
                      modelName: %s
                %s      endpoints: [%s]
                      metricsInterval: 50ms
                """.formatted(spec.name(), spec.name(), spec.model(), adapterLine,
                podEndpoints.stream().map(e -> "\"" + e + "\"").collect(Collectors.joining(", ")));
    }

    public String name() {
        return spec.name();
    }

    public RegionSpec spec() {
        return spec;
    }

    public RegionNamespace namespace() {
        return namespace;
    }

    /** The host end of the link to the region's gateway: {@code http://127.0.0.1:<port>} (no {@code /v1}). */
    public String baseUrl() {
        return "http://" + gatewayAddress().getHostString() + ":" + gatewayAddress().getPort();
    }

    /** The host end of the link, as the host reaches it: {@code 127.0.0.1:<port>}. */
    public InetSocketAddress gatewayAddress() {
        InetSocketAddress bound = link.address();
        return bound.getAddress().isAnyLocalAddress() ? new InetSocketAddress("127.0.0.1", bound.getPort()) : bound;
    }

    /**
     * The host end of the link as processes in {@code other}'s namespace reach it, {@code <other's hostAddress>:<port>}
     * (through this link's delay and cuts): for a gateway in one region that calls another. Needs
     * {@link RegionSpec#withLinkListenHost} {@code 0.0.0.0}.
     */
    public InetSocketAddress gatewayAddressFrom(RegionNamespace other) {
        if (!link.address().getAddress().isAnyLocalAddress()) {
            throw new IllegalStateException("the link of " + spec.name() + " listens on " + link.address()
                    + " only; start it with withLinkListenHost(\"0.0.0.0\") to reach it from other namespaces");
        }
        return new InetSocketAddress(other.hostAddress(), link.address().getPort());
    }

    /** The gateway itself, {@code 10.77.<k>.2:8080}: from the host, without the link's delay and cuts. */
    public InetSocketAddress gatewayAddressInside() {
        return new InetSocketAddress(namespace.namespaceAddress(), RegionSpec.GATEWAY_PORT);
    }

    /** The pods as the host reaches them, {@code 10.77.<k>.2:800i} (the gateway reaches them on 127.0.0.1). */
    public List<InetSocketAddress> podAddresses() {
        return IntStream.range(0, spec.pods())
                .mapToObj(i -> new InetSocketAddress(namespace.namespaceAddress(), RegionSpec.POD_BASE_PORT + i))
                .toList();
    }

    /** The simulator's fault-injection admin API ({@code POST /pods/{i}/kill|revive}, see docs/configuration.md). */
    public String podAdminUrl() {
        return "http://" + namespace.namespaceAddress().getHostAddress() + ":" + RegionSpec.POD_ADMIN_PORT;
    }

    /** The wide-area link: its delay, cuts and counters. */
    public DelayProxy link() {
        return link;
    }

    public RegionProcess gateway() {
        return gateway;
    }

    /** The simulator's process, null without pods. */
    public RegionProcess pods() {
        return pods;
    }

    /** From the call to {@link #start} until the gateway was ready and the link up. */
    public Duration startupTime() {
        return startupTime;
    }

    /** SIGKILL to the gateway: connections reset, nothing answers on its port (the link then resets its clients). */
    public void killGateway() {
        gateway.kill();
    }

    /** SIGTERM to the gateway: it drains and exits. */
    public void stopGateway() {
        gateway.stop();
    }

    /** Starts the gateway again (stopping it first if it runs) and waits until it is ready; how long that took. */
    public Duration restartGateway() throws IOException {
        long began = System.nanoTime();
        gateway.stop();
        gateway = namespace.start("gateway", gatewayCommand());
        awaitGatewayReady();
        return Duration.ofNanos(System.nanoTime() - began);
    }

    /** A slower (or faster) link: the one-way delay from now on. */
    public void slowLink(Duration oneWay) {
        link.delay(oneWay);
    }

    public void cutLink(CutMode mode) {
        link.cut(mode);
    }

    public void restoreLink() {
        link.restore();
    }

    /** Closes the link, stops the gateway and the pods, deletes the namespace. */
    @Override
    public void close() {
        if (link != null) {
            link.close();
        }
        namespace.close();
    }

    @Override
    public String toString() {
        return "region " + spec.name() + " (" + namespace + (link == null ? "" : ", " + link) + ")";
    }

    private List<String> podEndpointsInside() {
        return IntStream.range(0, spec.pods()).mapToObj(i -> "127.0.0.1:" + (RegionSpec.POD_BASE_PORT + i)).toList();
    }

    private List<String> podsCommand() {
        List<String> command = java(List.of());
        command.addAll(List.of("simulate", "--pods", Integer.toString(spec.pods()),
                "--base-port", Integer.toString(RegionSpec.POD_BASE_PORT), "--host", "0.0.0.0",
                "--admin-port", Integer.toString(RegionSpec.POD_ADMIN_PORT), "--model", spec.model(),
                "--loras", Integer.toString(spec.loras()), "--time-scale", Double.toString(spec.timeScale()),
                "--io-threads", "1"));
        if (!spec.podSpeeds().isEmpty()) {
            command.add("--speed");
            command.add(spec.podSpeeds().stream().map(s -> String.format(Locale.ROOT, "%s", s))
                    .collect(Collectors.joining(",")));
        }
        command.addAll(spec.podOptions());
        return command;
    }

    private List<String> gatewayCommand() {
        List<String> properties = new ArrayList<>();
        for (Map.Entry<String, String> p : spec.gatewayProperties().entrySet()) {
            properties.add("-D" + p.getKey() + "=" + p.getValue());
        }
        List<String> command = java(properties);
        command.addAll(List.of("serve", "--config", config.toAbsolutePath().toString(),
                "--port", Integer.toString(RegionSpec.GATEWAY_PORT)));
        return command;
    }

    private List<String> java(List<String> extraOptions) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(spec.jvmOptions());
        command.addAll(extraOptions);
        command.add("-jar");
        command.add(jar().toString());
        return command;
    }

    /** The runnable jar: failsafe names it in {@code gateway.jar}; from an IDE, the one at the repository's top. */
    static Path jar() {
        String named = System.getProperty("gateway.jar");
        Path jar = named != null ? Path.of(named) : Path.of("..", "target", "inference-gateway.jar");
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("no runnable jar at " + jar.toAbsolutePath() + ": mvn package builds it");
        }
        return jar.toAbsolutePath().normalize();
    }

    /** {@code GET /ready} from the host, straight to the gateway (not through the link), until it says 200. */
    private void awaitGatewayReady() throws IOException {
        namespace.awaitPort(gateway, RegionSpec.GATEWAY_PORT, spec.readyTimeout());
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        HttpRequest ready = HttpRequest.newBuilder(URI.create("http://" + namespace.namespaceAddress().getHostAddress()
                + ":" + RegionSpec.GATEWAY_PORT + "/ready")).timeout(Duration.ofSeconds(2)).build();
        gateway.awaitWhileAlive("200 from the gateway's /ready", spec.readyTimeout(), () -> {
            try {
                return http.send(ready, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
            } catch (IOException notYet) {
                return false;
            }
        });
    }

    private static void clearLogs(Path logDir) throws IOException {
        if (Files.isDirectory(logDir)) {
            try (Stream<Path> old = Files.list(logDir)) {
                for (Path p : old.toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }
}
