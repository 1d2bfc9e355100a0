package io.inferencegateway.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** Validates a scheduler's {@code sessionAffinity} section into a {@link SessionAffinityConfig}; errors name the path. */
final class SessionAffinityValidation {

    /**
     * The shortest idle timeout: a conversation's next turn comes after the user read the answer and typed, which is
     * seconds at least; below a second the table would forget every session between two turns.
     */
    static final Duration MIN_IDLE_TIMEOUT = Duration.ofSeconds(1);

    private SessionAffinityValidation() {
    }

    /**
     * @param at       the section's path, {@code spec.schedulers[0].sessionAffinity}
     * @param gpuAware whether the pool is a GPU-aware pool of pods, the only kind that keeps sessions
     * @param why      what the pool is when it is not (for the message)
     */
    static SessionAffinityConfig validate(String at, InferenceGatewayConfig.SessionAffinity s, boolean gpuAware,
            String why, EndpointPickerConfig picker) throws InvalidConfigException {
        SessionAffinityConfig c = validate(at, s, gpuAware, why);
        if (!c.enabled() && picker.plugins().stream().anyMatch(p -> SessionAffinityConfig.SCORER.equals(p.type()))) {
            throw new InvalidConfigException(at + ".enabled is false, but the scheduler's plugins use a "
                    + SessionAffinityConfig.SCORER + ", which would find no session: remove one or the other");
        }
        return c;
    }

    private static SessionAffinityConfig validate(String at, InferenceGatewayConfig.SessionAffinity s,
            boolean gpuAware, String why) throws InvalidConfigException {
        if (s == null) {
            return gpuAware ? SessionAffinityConfig.DEFAULT : SessionAffinityConfig.OFF;
        }
        boolean enabled = s.enabled() == null ? gpuAware : s.enabled();
        if (enabled && !gpuAware) {
            throw new InvalidConfigException(at + ".enabled: session affinity needs a GPU-aware pool of pods; " + why);
        }
        SessionAffinityConfig d = SessionAffinityConfig.DEFAULT;
        List<SessionAffinityConfig.SessionKey> keys = d.keys();
        if (s.keys() != null) {
            if (s.keys().isEmpty()) {
                throw new InvalidConfigException(at + ".keys must name at least one of promptCacheKey, user, header "
                        + "(or set enabled: false)");
            }
            keys = new ArrayList<>();
            for (int i = 0; i < s.keys().size(); i++) {
                String name = s.keys().get(i);
                String path = at + ".keys[" + i + "]";
                SessionAffinityConfig.SessionKey k = name == null ? null
                        : SessionAffinityConfig.SessionKey.fromConfigName(name.strip());
                if (k == null) {
                    throw new InvalidConfigException(path + " must be one of promptCacheKey, user, header; got '" + name
                            + "'" + ConfigChecks.didYouMean(name == null ? null : name.strip(),
                                    Arrays.stream(SessionAffinityConfig.SessionKey.values())
                                            .map(SessionAffinityConfig.SessionKey::configName).toList()));
                }
                if (keys.contains(k)) {
                    throw new InvalidConfigException(path + " names " + k.configName() + " a second time");
                }
                keys.add(k);
            }
        }
        String header = d.header();
        if (s.header() != null) {
            header = s.header().strip().toLowerCase(Locale.ROOT);
            if (!ConfigChecks.isHeaderName(header)) {
                throw new InvalidConfigException(at + ".header must be an HTTP header name such as x-session-id, got '"
                        + s.header() + "'");
            }
            if (!keys.contains(SessionAffinityConfig.SessionKey.HEADER)) {
                throw new InvalidConfigException(at + ".header is read only when keys include header");
            }
        }
        Duration idle = ConfigChecks.duration(s.idleTimeout(), at + ".idleTimeout", d.idleTimeout(), MIN_IDLE_TIMEOUT,
                ConfigChecks.MAX_DURATION);
        int max = ConfigChecks.intIn(s.maxSessions(), d.maxSessions(), 1, SessionAffinityConfig.MAX_SESSIONS,
                at + ".maxSessions");
        return new SessionAffinityConfig(enabled, keys, header, idle, max);
    }
}
