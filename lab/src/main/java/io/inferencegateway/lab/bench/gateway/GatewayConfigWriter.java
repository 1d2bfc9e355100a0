package io.inferencegateway.lab.bench.gateway;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;

import io.inferencegateway.lab.bench.fleet.ExternalServers;
import io.inferencegateway.lab.bench.fleet.FleetSpec;

/**
 * Renders the {@code InferenceGatewayConfig} for one run: one scheduler for the fleet's base model and
 * adapters, its pods as static endpoints (with their {@code engineType} when they are a user's own servers), and the
 * policy under test. Written by hand from the
 * documented format, so the bench does not depend on the gateway's classes.
 */
public final class GatewayConfigWriter {

    /** Gateway scrape interval in simulated time (GIE's 50 ms), scaled to wall time per run. */
    public static final Duration DEFAULT_METRICS_INTERVAL = Duration.ofMillis(50);
    /** Fastest scrape the bench asks for, whatever the time scale: each scrape costs CPU on a small box. */
    public static final Duration MIN_METRICS_INTERVAL = Duration.ofMillis(10);

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS));

    private GatewayConfigWriter() {
    }

    /**
     * Both durations are simulated time and are divided by the fleet's time scale, since the gateway
     * runs on the wall clock.
     *
     * @param policy          a bench policy label: a gateway policy name or a variant ({@link BenchPolicy})
     *
     * @param routeTimeout    limit for an upstream response (at least one wall second)
     * @param metricsInterval scrape interval, so that metrics are as fresh relative to the engines as on
     *                        real hardware, but not below {@link #MIN_METRICS_INTERVAL} of wall time
     */
    public static String render(FleetSpec fleet, String policy, List<InetSocketAddress> pods, Duration routeTimeout,
                                Duration metricsInterval) {
        return render(fleet, policy, pods, routeTimeout, metricsInterval, null, false);
    }

    /**
     * @param replicas  the scheduler's {@code replicas} section, null for none (see {@link ReplicaMode})
     * @param accessLog turns on the gateway's one JSON line per request ({@code spec.observability.accessLog}),
     *                  which names the pod and the attempts of each request in the run's gateway.log
     */
    public static String render(FleetSpec fleet, String policy, List<InetSocketAddress> pods, Duration routeTimeout,
                                Duration metricsInterval, Map<String, Object> replicas, boolean accessLog) {
        return render(fleet, policy, pods, routeTimeout, metricsInterval, replicas, accessLog, false);
    }

    /** As above; {@code flowControl} turns on the pool's flow control (off by default in the gateway). */
    public static String render(FleetSpec fleet, String policy, List<InetSocketAddress> pods, Duration routeTimeout,
                                Duration metricsInterval, Map<String, Object> replicas, boolean accessLog,
                                boolean flowControl) {
        Map<String, Object> scheduler = new LinkedHashMap<>();
        scheduler.put("name", schedulerName(fleet.modelName()));
        scheduler.put("modelName", fleet.modelName());
        if (!fleet.loraAdapters().isEmpty()) {
            scheduler.put("loraAdapters", fleet.loraAdapters());
        }
        if (fleet.isExternal()) {
            // a user's own servers: the gateway reads their engine's metric names (the simulator speaks vLLM's)
            scheduler.put("engineType", fleet.external().engine().label());
        }
        scheduler.put("endpoints", pods.stream().map(ExternalServers::name).toList());
        BenchPolicy chosen = BenchPolicy.of(policy);
        scheduler.put("policy", chosen.policy());
        if (!chosen.weights().isEmpty()) {
            scheduler.put("weights", new TreeMap<>(chosen.weights()));
        }
        scheduler.putAll(new TreeMap<>(chosen.scheduler()));
        scheduler.put("routeTimeout", millis(atLeast(toWall(routeTimeout, fleet.timeScale()), Duration.ofSeconds(1))));
        scheduler.put("metricsInterval", millis(atLeast(toWall(metricsInterval, fleet.timeScale()), MIN_METRICS_INTERVAL)));
        // a request may wait in the gateway's queue as long as for its response, in simulated time like the rest
        // (the default 30 s of wall time is under 2 s of model time when the fleet runs 16 times slower)
        scheduler.put("flowControl", Map.of("enabled", flowControl, "queueTimeout",
                millis(atLeast(toWall(routeTimeout, fleet.timeScale()), Duration.ofSeconds(1)))));
        if (replicas != null) {
            scheduler.put("replicas", replicas);
        }

        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("apiVersion", "inferencegateway.io/v1alpha1");
        doc.put("kind", "InferenceGatewayConfig");
        doc.put("metadata", Map.of("name", "bench"));
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("schedulers", List.of(scheduler));
        if (accessLog) {
            spec.put("observability", Map.of("accessLog", true));
        }
        doc.put("spec", spec);
        try {
            return YAML.writeValueAsString(doc);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot render gateway config", e);
        }
    }

    static Duration toWall(Duration simulated, double timeScale) {
        return Duration.ofNanos(Math.round(simulated.toNanos() / timeScale));
    }

    private static Duration atLeast(Duration d, Duration floor) {
        return d.compareTo(floor) < 0 ? floor : d;
    }

    /** A Kubernetes-style name from a model name: {@code meta-llama/Llama-3.1-8B} → {@code llama-3-1-8b}. */
    static String schedulerName(String modelName) {
        String base = modelName.substring(modelName.lastIndexOf('/') + 1).toLowerCase(Locale.ROOT);
        String name = base.replaceAll("[^a-z0-9]+", "-").replaceAll("^-+|-+$", "");
        return name.isEmpty() ? "bench" : name;
    }

    /** Milliseconds below ten seconds, whole seconds (rounded up) above. */
    private static String millis(Duration d) {
        long ms = Math.max(1, d.toMillis());
        return ms < 10_000 ? ms + "ms" : (ms + 999) / 1000 + "s";
    }
}
