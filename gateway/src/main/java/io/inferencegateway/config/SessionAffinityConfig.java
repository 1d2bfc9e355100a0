package io.inferencegateway.config;

import java.time.Duration;
import java.util.List;

/**
 * Which requests of a pool belong to one conversation, and how long the pool remembers where each conversation went
 * (the {@code sessionAffinity} section of a scheduler; docs/sessions.md).
 *
 * @param enabled     whether the pool keeps sessions on their pods; on by default for a GPU-aware pool of pods
 * @param keys        what names a request's session, the first one present winning
 * @param header      the request header read for {@link SessionKey#HEADER}
 * @param idleTimeout a session unseen this long is forgotten
 * @param maxSessions the most sessions the pool remembers; the least recently seen go first
 */
public record SessionAffinityConfig(boolean enabled, List<SessionKey> keys, String header, Duration idleTimeout,
        int maxSessions) {

    /** The scheduler plugin that keeps sessions on their pods. */
    public static final String SCORER = "session-affinity-scorer";
    /**
     * Its weight when the profile does not name it: more than the prefix scorer (3) and the queue and KV scorers
     * (2 + 2) together, so that in practice only the filters (a saturated pod) move a session.
     */
    public static final int SCORER_WEIGHT = 8;

    public static final String DEFAULT_HEADER = "x-session-id";
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofMinutes(30);
    public static final int DEFAULT_MAX_SESSIONS = 100_000;
    /**
     * The most sessions a pool may remember: about 100 bytes each, so the largest table takes some 100 MB. More
     * conversations than that idle within one timeout is a pool for a bigger timeout's cut, not a bigger table.
     */
    public static final int MAX_SESSIONS = 1_000_000;

    /** On, every key in the default order, the defaults above: what a GPU-aware pool of pods gets. */
    public static final SessionAffinityConfig DEFAULT = new SessionAffinityConfig(true, List.of(SessionKey.values()),
            DEFAULT_HEADER, DEFAULT_IDLE_TIMEOUT, DEFAULT_MAX_SESSIONS);

    /** Off: no request has a session (other policies, a global tier's pool). */
    public static final SessionAffinityConfig OFF = new SessionAffinityConfig(false, List.of(SessionKey.values()),
            DEFAULT_HEADER, DEFAULT_IDLE_TIMEOUT, DEFAULT_MAX_SESSIONS);

    public SessionAffinityConfig {
        keys = List.copyOf(keys);
    }

    /** What can name a session, by its config name. */
    public enum SessionKey {
        /** The body's {@code prompt_cache_key}. */
        PROMPT_CACHE_KEY("promptCacheKey"),
        /** The body's {@code user}. */
        USER("user"),
        /** The request header named by {@code header}. */
        HEADER("header");

        private final String configName;

        SessionKey(String configName) {
            this.configName = configName;
        }

        public String configName() {
            return configName;
        }

        /** The key of that config name, or null. */
        public static SessionKey fromConfigName(String name) {
            for (SessionKey k : values()) {
                if (k.configName.equals(name)) {
                    return k;
                }
            }
            return null;
        }
    }
}
