package io.inferencegateway.lab.bench.gateway;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * How the gateway replicas of a {@code bench --replicas N} run know about each other: the
 * {@code replicas} section each one's config gets (docs/configuration.md, "Several gateway replicas").
 */
public enum ReplicaMode {
    /** No {@code replicas} section: N gateways as they were before it existed, each with its own view. */
    NAIVE,
    /** {@code replicas: {count: N}}: rendezvous placement, herding correction × N, scrapes spread over the N. */
    RENDEZVOUS,
    /** Rendezvous placement and herding correction × N, but every replica scrapes every pod at the full rate. */
    RENDEZVOUS_EVERY_SCRAPE,
    /**
     * {@code replicas: {count: N, placement: shared}}: the replicas share their routing decisions through a Redis the
     * bench starts; herding correction × N, scrapes spread over the N.
     */
    SHARED;

    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    public static ReplicaMode fromLabel(String label) {
        for (ReplicaMode m : values()) {
            if (m.label().equals(label)) {
                return m;
            }
        }
        throw new IllegalArgumentException("unknown replica mode '" + label + "'; known: naive, rendezvous, "
                + "rendezvous-every-scrape, shared");
    }

    /**
     * The scheduler's {@code replicas} section for {@code count} replicas, null for none.
     *
     * @param redisUrl the Redis of the shared mode, ignored by the others
     */
    public Map<String, Object> section(int count, String redisUrl) {
        if (this == NAIVE) {
            return null;
        }
        Map<String, Object> section = new LinkedHashMap<>();
        section.put("count", count);
        section.put("placement", this == SHARED ? "shared" : "rendezvous");
        section.put("spreadScrapes", this != RENDEZVOUS_EVERY_SCRAPE && count > 1);
        if (this == SHARED) {
            section.put("redisUrl", redisUrl);
        }
        return section;
    }
}
