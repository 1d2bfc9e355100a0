package io.inferencegateway.lab.soak;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;

import io.inferencegateway.lab.soak.PlannedCall.Tenant;

/**
 * The config file both replicas read and re-read: API keys for the three tenants, silver's token budget and bronze's
 * request budget per {@link #WINDOW_MILLIS} window counted on the shared Redis (fail open), one pool found by label
 * through discovery, with failover, outlier detection, flow control and stream usage on. A valid reload flips the
 * pool's scrape interval between two values (a change of the pool's config, so the pool is rebuilt and its queue
 * handed over); an invalid one misspells a field, which the loader refuses while the running config stays.
 */
final class SoakConfig {

    static final long WINDOW_MILLIS = 15_000;
    static final String MODEL = "soak-llm";

    private final Path file;
    private final Path keys;
    private final int targetPort;
    private final String redisUrl;
    private final int silverTokensPerWindow;
    private final int bronzeRequestsPerWindow;
    private int generation;

    SoakConfig(Path dir, int targetPort, String redisUrl, int silverTokensPerWindow, int bronzeRequestsPerWindow)
            throws IOException {
        this.file = dir.resolve("gateway.yaml");
        this.keys = dir.resolve("api-keys");
        this.targetPort = targetPort;
        this.redisUrl = redisUrl;
        this.silverTokensPerWindow = silverTokensPerWindow;
        this.bronzeRequestsPerWindow = bronzeRequestsPerWindow;
        StringBuilder lines = new StringBuilder();
        for (Tenant t : Tenant.values()) {
            lines.append("sha256:").append(sha256(t.apiKey())).append(' ').append(t.id).append('\n');
        }
        Files.writeString(keys, lines, StandardCharsets.UTF_8);
        write(render(false));
    }

    Path file() {
        return file;
    }

    int silverTokensPerWindow() {
        return silverTokensPerWindow;
    }

    int bronzeRequestsPerWindow() {
        return bronzeRequestsPerWindow;
    }

    /** Rewrites the file: the next valid variant, or one the loader refuses. */
    synchronized void reload(boolean valid) throws IOException {
        if (valid) {
            generation++;
        }
        write(render(!valid));
    }

    private String render(boolean invalid) {
        String interval = generation % 2 == 0 ? "100ms" : "150ms";
        return """
                apiVersion: inferencegateway.io/v1alpha1
                kind: InferenceGatewayConfig
                metadata: {name: soak}
                spec:
                  auth:
                    apiKeys: {file: %s}
                  tenants:
                    - {name: gold, priority: critical}
                    - {name: silver, priority: standard, limits: {tokensPerMinute: %d}}
                    - {name: bronze, priority: sheddable, limits: {requestsPerMinute: %d}}
                  rateLimits:
                    window: %dms
                    redis: {url: "%s", failMode: open}
                  schedulers:
                    - name: sim
                      modelName: %s
                      namespace: %s
                      modelSelector: {matchLabels: {app: %s}}
                      targetPort: %d
                      policy: gpu-aware
                      routeTimeout: 25s
                      metricsInterval: %s
                      streamUsage: true
                      failover: {maxAttempts: 3, retryBudgetPercent: 50, minRetries: 20}
                      flowControl: {enabled: true, maxQueued: 512, queueTimeout: 15s}
                      replicas: {count: 2, placement: shared, redisUrl: "%s"}
                """.formatted(keys, silverTokensPerWindow, bronzeRequestsPerWindow, WINDOW_MILLIS, redisUrl, MODEL,
                SoakFleet.NAMESPACE, SoakFleet.LABELS.get("app"), targetPort, interval, redisUrl)
                + (invalid ? "      metricsIntervall: 100ms\n" : "");
    }

    /** Written beside and moved into place, so a replica never reads half a file. */
    private void write(String yaml) throws IOException {
        Path tmp = file.resolveSibling("gateway.yaml.tmp");
        Files.writeString(tmp, yaml, StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static String sha256(String key) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(key.getBytes(StandardCharsets.UTF_8))).toLowerCase(Locale.ROOT);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
