package io.inferencegateway.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** A scheduler's {@code sessionAffinity} section: its defaults, its shape, and every value it refuses, by path. */
class SessionAffinityConfigTest {

    static final String HEAD = """
            kind: InferenceGatewayConfig
            spec:
              schedulers:
                - modelName: m
                  endpoints: ["h:1"]
            """;

    static PoolConfig pool(String extra) throws InvalidConfigException {
        return ConfigLoader.parse(HEAD + extra.indent(6)).pools().get(0);
    }

    @Test
    void aGpuAwarePoolOfPodsKeepsSessionsByDefault() throws Exception {
        SessionAffinityConfig s = pool("").sessionAffinity();

        assertThat(s).isEqualTo(SessionAffinityConfig.DEFAULT);
        assertThat(s.keys()).containsExactly(SessionAffinityConfig.SessionKey.PROMPT_CACHE_KEY, SessionAffinityConfig.SessionKey.USER, SessionAffinityConfig.SessionKey.HEADER);
        assertThat(s.header()).isEqualTo("x-session-id");
        assertThat(s.idleTimeout()).isEqualTo(Duration.ofMinutes(30));
        assertThat(s.maxSessions()).isEqualTo(100_000);
        assertThat(PoolConfig.builder("m").build()).as("the builder's default is the loader's")
                .extracting(PoolConfig::sessionAffinity).isEqualTo(s);
    }

    @Test
    void theSectionIsReadWithEveryField() throws Exception {
        SessionAffinityConfig s = pool("""
                sessionAffinity:
                  keys: [header, promptCacheKey]
                  header: X-Conversation
                  idleTimeout: 5m
                  maxSessions: 5000
                """).sessionAffinity();

        assertThat(s).isEqualTo(new SessionAffinityConfig(true, List.of(SessionAffinityConfig.SessionKey.HEADER, SessionAffinityConfig.SessionKey.PROMPT_CACHE_KEY),
                "x-conversation", Duration.ofMinutes(5), 5000));
    }

    @Test
    void otherPoliciesKeepNoSessionsAndEnabledFalseTurnsThemOff() throws Exception {
        assertThat(pool("policy: round-robin").sessionAffinity().enabled()).isFalse();
        assertThat(pool("sessionAffinity: {enabled: false}").sessionAffinity().enabled()).isFalse();
    }

    static Stream<Arguments> refused() {
        String at = "spec.schedulers[0].sessionAffinity";
        return Stream.of(
                Arguments.of("sessionAffinity: {keys: [promptCacheKey, usr]}",
                        at + ".keys[1] must be one of promptCacheKey, user, header; got 'usr'; did you mean user?"),
                Arguments.of("sessionAffinity: {keys: [cookie]}",
                        at + ".keys[0] must be one of promptCacheKey, user, header; got 'cookie'"),
                Arguments.of("sessionAffinity: {keys: [user, user]}", at + ".keys[1] names user a second time"),
                Arguments.of("sessionAffinity: {keys: []}",
                        at + ".keys must name at least one of promptCacheKey, user, header (or set enabled: false)"),
                Arguments.of("sessionAffinity: {idleTimeout: 500ms}", at + ".idleTimeout must be 1s..24h, got '500ms'"),
                Arguments.of("sessionAffinity: {idleTimeout: 2d}", at + ".idleTimeout '2d' has no valid unit (ms, s, m, h)"),
                Arguments.of("sessionAffinity: {idleTimeout: 25h}", at + ".idleTimeout must be 1s..24h, got '25h'"),
                Arguments.of("sessionAffinity: {maxSessions: 0}", at + ".maxSessions must be 1..1000000, got 0"),
                Arguments.of("sessionAffinity: {maxSessions: 2000000}",
                        at + ".maxSessions must be 1..1000000, got 2000000"),
                Arguments.of("sessionAffinity: {header: \"x session\"}",
                        at + ".header must be an HTTP header name such as x-session-id, got 'x session'"),
                Arguments.of("sessionAffinity: {keys: [user], header: x-conv}",
                        at + ".header is read only when keys include header"),
                Arguments.of("sessionAffinity: {idleTimout: 5m}",
                        at + ".idleTimout is not a known field; did you mean idleTimeout?"),
                Arguments.of("policy: random\nsessionAffinity: {enabled: true}",
                        at + ".enabled: session affinity needs a GPU-aware pool of pods; this pool's policy is random"),
                Arguments.of("""
                        sessionAffinity: {enabled: false}
                        plugins: [{type: session-affinity-scorer}, {type: queue-scorer}]
                        """, at + ".enabled is false, but the scheduler's plugins use a session-affinity-scorer, "
                        + "which would find no session: remove one or the other"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refused")
    void badValuesAreRefusedWithTheirPath(String yaml, String expected) {
        assertThatThrownBy(() -> pool(yaml)).isInstanceOf(InvalidConfigException.class).hasMessage(expected);
    }
}
