package io.inferencegateway.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * This gateway as a global tier ({@code spec.global}, docs/global.md): its home region, its targets, and how it
 * reaches them. {@link #NONE} on a gateway in front of pods.
 *
 * @param region           the home region: standard traffic stays there while it can serve in time
 * @param targets          every cluster and provider declared, clusters first
 * @param clusterTokenFile the bearer token for the clusters' capacity summaries; null: none sent
 * @param tls              trust and client identity for HTTPS targets
 * @param summaryInterval  how often each cluster's capacity summary is polled
 */
public record GlobalConfig(String region, List<TargetConfig> targets, Path clusterTokenFile, TlsFiles tls,
        Duration summaryInterval) {

    /** Four polls a second: a saturating or lost cluster is seen within a second, at a few hundred bytes a poll. */
    public static final Duration DEFAULT_SUMMARY_INTERVAL = Duration.ofMillis(250);
    public static final GlobalConfig NONE = new GlobalConfig(null, List.of(), null, TlsFiles.JDK,
            DEFAULT_SUMMARY_INTERVAL);

    /** PEM files: the CA bundle to trust (null: the JDK's), a client certificate and key for mTLS (null: none). */
    public record TlsFiles(Path caFile, Path certFile, Path keyFile) {
        public static final TlsFiles JDK = new TlsFiles(null, null, null);
    }

    public GlobalConfig {
        targets = List.copyOf(targets);
        tls = tls == null ? TlsFiles.JDK : tls;
    }

    /** Whether this gateway is a global tier. */
    public boolean enabled() {
        return !targets.isEmpty();
    }

    /** The target named {@code name}, or null. */
    public TargetConfig target(String name) {
        for (TargetConfig t : targets) {
            if (t.name().equals(name)) {
                return t;
            }
        }
        return null;
    }
}
