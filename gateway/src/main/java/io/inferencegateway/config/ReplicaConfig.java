package io.inferencegateway.config;

import java.net.URI;
import java.time.Duration;
import java.util.Locale;

/**
 * How this gateway shares a pool with its other active replicas (the {@code replicas} section of a
 * scheduler). The default describes one gateway alone, which is how it behaved before the section existed.
 *
 * @param count          gateway replicas routing to this pool, this one included (at least 1)
 * @param placement      how replicas agree on where a prefix lives
 * @param loadBound      rendezvous placement: a prefix's home pod may carry this times the pool's average
 *                       load before the prefix spills to the next pod (at least 1)
 * @param keyBlocks      rendezvous placement: leading prefix blocks that name a prefix's home
 * @param spreadScrapes  scrape every {@code metricsInterval × count} with a random phase, so the replicas
 *                       together scrape each pod about as often as one gateway would
 * @param redisUrl       shared placement: the Redis through which the replicas tell each other their routing
 *                       decisions; null for the other placements
 */
public record ReplicaConfig(int count, Coordination placement, double loadBound, int keyBlocks, boolean spreadScrapes,
        URI redisUrl) {

    public static final double DEFAULT_LOAD_BOUND = 1.25;
    public static final int DEFAULT_KEY_BLOCKS = 4;

    /** One gateway, independent placement, every scrape its own. */
    public static final ReplicaConfig SINGLE = new ReplicaConfig(1, Coordination.INDEPENDENT, DEFAULT_LOAD_BOUND,
            DEFAULT_KEY_BLOCKS, false, null);

    /** How replicas agree on placement. */
    public enum Coordination {
        /** Each replica follows only its own prefix index (a replica alone, or replicas unaware of each other). */
        INDEPENDENT,
        /** Every replica also credits the prefix's rendezvous home, which they all compute alike. */
        RENDEZVOUS,
        /**
         * Every replica tells the others each routing decision through Redis, so all prefix indexes learn all the
         * traffic and a new prefix goes where the load is lowest, as with one gateway; while Redis cannot be
         * reached, prefixes no pod holds yet go to their rendezvous home.
         */
        SHARED;

        public String configName() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static Coordination fromConfigName(String name) {
            for (Coordination p : values()) {
                if (p.configName().equals(name)) {
                    return p;
                }
            }
            return null;
        }
    }

    /** Whether the prefix scorers credit rendezvous homes (always for rendezvous; while Redis is away for shared). */
    public boolean rendezvousHomes() {
        return placement == Coordination.RENDEZVOUS || placement == Coordination.SHARED;
    }

    /** The interval this replica scrapes at. */
    public Duration scrapeInterval(Duration metricsInterval) {
        return spreadScrapes ? metricsInterval.multipliedBy(count) : metricsInterval;
    }
}
