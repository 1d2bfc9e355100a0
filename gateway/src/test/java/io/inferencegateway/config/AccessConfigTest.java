package io.inferencegateway.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** spec.auth, spec.tenants and spec.rateLimits as ConfigLoader reads and checks them (docs/auth.md). */
class AccessConfigTest {

    static final String HEAD = """
            kind: InferenceGatewayConfig
            spec:
              schedulers:
                - {modelName: llama, loraAdapters: [sql], endpoints: ["127.0.0.1:8000"]}
            """;

    @Test
    void everythingIsOffByDefault() throws Exception {
        GatewayConfig c = ConfigLoader.parse(HEAD);
        assertThat(c.auth().enabled()).isFalse();
        assertThat(c.tenants()).isEmpty();
        assertThat(c.rateLimits().shared()).isFalse();
        assertThat(c.rateLimits().window()).isEqualTo(Duration.ofMinutes(1));
    }

    @Test
    void aFullConfigIsReadWithItsDefaults() throws Exception {
        GatewayConfig c = ConfigLoader.parse(HEAD + """
                  auth:
                    apiKeys: {file: /keys/api-keys}
                    jwt: {jwksUrl: "https://login.example.test/jwks.json", audience: gw}
                    protectMetrics: true
                  tenants:
                    - name: team-a
                      models: [llama]
                      adapters: []
                      priority: sheddable
                      limits: {tokensPerMinute: 1000}
                      modelLimits: [{model: sql, requestsPerMinute: 5}]
                      slo: {ttft: 500ms, tpot: 50ms}
                    - name: team-b
                  rateLimits:
                    redis: {url: "redis://redis:6379", failMode: closed}
                """);
        assertThat(c.auth().jwt().tenantClaim()).isEqualTo("tenant");
        assertThat(c.auth().jwt().issuer()).isNull();
        assertThat(c.auth().protectMetrics()).isTrue();
        assertThat(c.auth().protectUi()).isFalse();
        TenantConfig a = c.tenant("team-a");
        assertThat(a.priority()).isEqualTo(io.inferencegateway.domain.Priority.SHEDDABLE);
        assertThat(a.allows("llama", null)).isTrue();
        assertThat(a.allows("llama", "sql")).isFalse();
        assertThat(a.limitsFor("sql").requestsPerMinute()).isEqualTo(5);
        assertThat(a.unlimited()).isFalse();
        assertThat(a.slo()).isEqualTo(new io.inferencegateway.domain.LatencyTargets(500, 50));
        TenantConfig b = c.tenant("team-b");
        assertThat(b.priority()).isEqualTo(io.inferencegateway.domain.Priority.STANDARD);
        assertThat(b.allows("llama", "sql")).isTrue();
        assertThat(b.unlimited()).isTrue();
        assertThat(b.slo().any()).isFalse();
        assertThat(c.rateLimits().shared()).isTrue();
        assertThat(c.rateLimits().failOpen()).isFalse();
    }

    static List<String[]> invalid() {
        return List.of(
                new String[] {"auth with nothing to check", "  auth: {protectUi: true}\n",
                    "spec.auth needs apiKeys or jwt (or enabled: false)"},
                new String[] {"both a JWKS URL and static keys",
                    "  auth: {jwt: {jwksUrl: \"https://a.test/j\", jwks: \"{}\"}}\n",
                    "spec.auth.jwt needs exactly one of jwksUrl and jwks (static keys)"},
                new String[] {"a JWKS URL that is not http", "  auth: {jwt: {jwksUrl: \"ftp://a.test/j\"}}\n",
                    "spec.auth.jwt.jwksUrl must be an http(s) URL, got 'ftp://a.test/j'"},
                new String[] {"a tenant without a name", "  tenants: [{priority: critical}]\n",
                    "spec.tenants[0].name is required"},
                new String[] {"two tenants of one name", "  tenants: [{name: a}, {name: a}]\n",
                    "spec.tenants[1].name 'a' duplicates spec.tenants[0].name"},
                new String[] {"an unknown priority", "  tenants: [{name: a, priority: urgent}]\n",
                    "spec.tenants[0].priority must be critical, standard, sheddable or an integer within +-1000; got 'urgent'"},
                new String[] {"a model nobody serves", "  tenants: [{name: a, models: [gpt]}]\n",
                    "spec.tenants[0].models[0] 'gpt' is not a served model or adapter"},
                new String[] {"a negative limit", "  tenants: [{name: a, limits: {tokensPerMinute: -1}}]\n",
                    "spec.tenants[0].limits.tokensPerMinute must be 0 (unlimited) or more, got -1"},
                new String[] {"a per-model limit for a model nobody serves",
                    "  tenants: [{name: a, modelLimits: [{model: gpt, requestsPerMinute: 1}]}]\n",
                    "spec.tenants[0].modelLimits[0].model 'gpt' is not a served model or adapter"},
                new String[] {"a latency target that is no duration", "  tenants: [{name: a, slo: {ttft: soon}}]\n",
                    "spec.tenants[0].slo.ttft 'soon' is not a duration such as 300s, 250ms or 5m"},
                new String[] {"a latency target beyond an hour", "  tenants: [{name: a, slo: {tpot: 2h}}]\n",
                    "spec.tenants[0].slo.tpot must be 1ms..1h, got '2h'"},
                new String[] {"a Redis URL that is not redis://", "  rateLimits: {redis: {url: \"http://r:6379\"}}\n",
                    "spec.rateLimits.redis.url must be a redis:// or rediss:// URL, got 'http://r:6379'"},
                new String[] {"an unknown fail mode", "  rateLimits: {redis: {url: \"redis://r\", failMode: maybe}}\n",
                    "spec.rateLimits.redis.failMode must be open or closed, got 'maybe'"},
                new String[] {"a window under a second", "  rateLimits: {window: 500ms}\n",
                    "spec.rateLimits.window must be at least 1s, got '500ms'"});
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalid")
    void invalidSettingsNameTheirPath(String name, String yaml, String message) {
        assertThatThrownBy(() -> ConfigLoader.parse(HEAD + yaml)).isInstanceOf(InvalidConfigException.class)
                .hasMessage(message);
    }
}
