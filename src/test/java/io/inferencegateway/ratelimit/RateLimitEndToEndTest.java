package io.inferencegateway.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.inferencegateway.auth.ApiKeys;
import io.inferencegateway.lab.simulator.FleetOptions;
import io.inferencegateway.lab.simulator.SimulatedFleet;
import io.inferencegateway.testing.GatewayHarness;
import io.inferencegateway.lab.bench.gateway.RedisServer;

/**
 * Tenants' limits end to end (docs/auth.md), the same checks on a gateway counting in its own memory and on one
 * counting on a real Redis: the 429 and its headers, per-model limits, and reserve-then-commit giving back what a
 * request reserved and did not use.
 */
class RateLimitEndToEndTest {

    static final String MODEL = "meta-llama/Llama-3.1-8B-Instruct";
    static final ObjectMapper JSON = new ObjectMapper();
    static final HttpClient HTTP = HttpClient.newHttpClient();
    static final List<String> HEADERS = List.of("x-ratelimit-limit-requests", "x-ratelimit-remaining-requests",
            "x-ratelimit-reset-requests", "x-ratelimit-limit-tokens", "x-ratelimit-remaining-tokens",
            "x-ratelimit-reset-tokens");

    static SimulatedFleet fleet;
    static RedisServer redis;
    static GatewayHarness local;
    static GatewayHarness shared;
    static String adapter;

    @BeforeAll
    static void start() throws Exception {
        fleet = SimulatedFleet.start(FleetOptions.builder().pods(1).loras(1).timeScale(50).model(MODEL).build());
        adapter = fleet.adapterNames().get(0);
        redis = RedisServer.start();
        Path keys = Files.createTempFile("api-keys", ".txt");
        StringBuilder lines = new StringBuilder();
        for (String tenant : List.of("rpm", "tpm", "per-model", "free")) {
            lines.append(ApiKeys.line("sk-" + tenant, tenant));
        }
        Files.writeString(keys, lines);
        String config = GatewayHarness.fleetConfig(fleet, MODEL) + """
                  auth:
                    apiKeys: {file: "%s"}
                  tenants:
                    - name: rpm
                      limits: {requestsPerMinute: 3, tokensPerMinute: 100000}
                    - name: tpm
                      limits: {tokensPerMinute: 20000}
                    - name: per-model
                      modelLimits:
                        - {model: "%s", requestsPerMinute: 1}
                    - name: free
                  rateLimits:
                    defaultMaxTokens: 1000
                """.formatted(keys, adapter);
        local = GatewayHarness.start(config);
        shared = GatewayHarness.start(config + "    redis: {url: \"" + redis.url() + "\", failMode: closed}\n");
    }

    @AfterAll
    static void stop() throws Exception {
        local.close();
        shared.close();
        fleet.close();
        redis.close();
    }

    /** By name: JUnit closes AutoCloseable arguments after each invocation. */
    static List<String> gateways() {
        return List.of("in-memory", "redis");
    }

    static GatewayHarness gateway(String store) {
        return store.equals("redis") ? shared : local;
    }

    static HttpResponse<String> chat(GatewayHarness gateway, String tenant, String model, String extra) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/v1/chat/completions"))
                .header("Content-Type", "application/json").header("Authorization", "Bearer sk-" + tenant)
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"" + model + "\"" + extra
                        + ",\"messages\":[{\"role\":\"user\",\"content\":\"Tell me about rate limits\"}]}"))
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    static long header(HttpResponse<String> r, String name) {
        return Long.parseLong(r.headers().firstValue(name).orElseThrow(() -> new AssertionError("no " + name)));
    }

    /** Waits into a fresh minute when the current one ends too soon for a test to fit in it. */
    static void freshWindow() throws InterruptedException {
        long left = 60_000 - System.currentTimeMillis() % 60_000;
        if (left < 10_000) {
            Thread.sleep(left + 100);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("gateways")
    void overTheRequestLimitIsA429WithRetryAfterAndEveryHeader(String store) throws Exception {
        GatewayHarness gateway = gateway(store);
        freshWindow();
        String tenant = "rpm";
        for (long expected = 2; expected >= 0; expected--) {
            HttpResponse<String> ok = chat(gateway, tenant, MODEL, ",\"max_tokens\":2");
            assertThat(ok.statusCode()).isEqualTo(200);
            for (String h : HEADERS) {
                assertThat(ok.headers().firstValue(h)).as(h).isPresent();
            }
            assertThat(header(ok, "x-ratelimit-limit-requests")).isEqualTo(3);
            assertThat(header(ok, "x-ratelimit-remaining-requests")).isEqualTo(expected);
            assertThat(header(ok, "x-ratelimit-limit-tokens")).isEqualTo(100000);
            assertThat(ok.headers().firstValue("x-ratelimit-reset-requests").orElseThrow()).matches("\\d+(\\.\\d)?s|\\d+ms");
        }
        HttpResponse<String> refused = chat(gateway, tenant, MODEL, ",\"max_tokens\":2");
        assertThat(refused.statusCode()).isEqualTo(429);
        JsonNode error = JSON.readTree(refused.body()).path("error");
        assertThat(error.path("code").asText()).isEqualTo("rate_limit_exceeded");
        assertThat(error.path("type").asText()).isEqualTo("requests");
        assertThat(error.path("message").asText()).contains("requests per min (RPM)").contains("try again in");
        long retryAfter = Long.parseLong(refused.headers().firstValue("retry-after").orElseThrow());
        assertThat(retryAfter).isBetween(1L, 60L);
        for (String h : HEADERS) {
            assertThat(refused.headers().firstValue(h)).as(h).isPresent();
        }
        assertThat(header(refused, "x-ratelimit-remaining-requests")).isZero();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("gateways")
    void theUnusedPartOfAReservationIsGivenBackWhenTheRequestEnds(String store) throws Exception {
        GatewayHarness gateway = gateway(store);
        freshWindow();
        long limit = 20000;
        // no max_tokens: the reservation is the prompt estimate plus defaultMaxTokens (1000); the model writes 256
        HttpResponse<String> first = chat(gateway, "tpm", MODEL, "");
        assertThat(first.statusCode()).isEqualTo(200);
        long reserved = limit - header(first, "x-ratelimit-remaining-tokens");
        long used = JSON.readTree(first.body()).path("usage").path("total_tokens").asLong();
        assertThat(reserved).isGreaterThan(1000);
        assertThat(used).isPositive().isLessThan(reserved);
        // every later request sees what the earlier ones really used plus its own reservation, not their reservations
        long usedBefore = used;
        boolean settled = false;
        for (int i = 0; i < 5 && !settled; i++) {
            HttpResponse<String> next = chat(gateway, "tpm", MODEL, "");
            assertThat(next.statusCode()).isEqualTo(200);
            settled = header(next, "x-ratelimit-remaining-tokens") == limit - usedBefore - reserved;
            usedBefore += JSON.readTree(next.body()).path("usage").path("total_tokens").asLong();
        }
        assertThat(settled).as("a later request saw the first one's real usage in place of its reservation").isTrue();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("gateways")
    void aPerModelLimitCountsOnlyThatModel(String store) throws Exception {
        GatewayHarness gateway = gateway(store);
        freshWindow();
        HttpResponse<String> first = chat(gateway, "per-model", adapter, ",\"max_tokens\":2");
        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(header(first, "x-ratelimit-remaining-requests")).isZero();
        assertThat(chat(gateway, "per-model", adapter, ",\"max_tokens\":2").statusCode()).isEqualTo(429);
        HttpResponse<String> base = chat(gateway, "per-model", MODEL, ",\"max_tokens\":2");
        assertThat(base.statusCode()).isEqualTo(200);
        assertThat(base.headers().map().keySet()).noneMatch(h -> h.startsWith("x-ratelimit-"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("gateways")
    void aTenantWithoutLimitsGetsNoRateLimitHeaders(String store) throws Exception {
        GatewayHarness gateway = gateway(store);
        HttpResponse<String> r = chat(gateway, "free", MODEL, ",\"max_tokens\":2");
        assertThat(r.statusCode()).isEqualTo(200);
        Map<String, List<String>> headers = r.headers().map();
        assertThat(headers.keySet()).noneMatch(h -> h.startsWith("x-ratelimit-"));
    }
}
