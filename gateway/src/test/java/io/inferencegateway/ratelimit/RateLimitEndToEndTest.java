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
import java.util.OptionalLong;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.inferencegateway.auth.ApiKeys;
import io.inferencegateway.simulator.FleetOptions;
import io.inferencegateway.simulator.SimulatedFleet;
import io.inferencegateway.testing.GatewayHarness;
import io.inferencegateway.simulator.RedisServer;

/**
 * Tenants' limits end to end (docs/auth.md), the same checks on a gateway counting in its own memory and on one
 * counting on a real Redis: the 429 and its headers, per-model limits, and reserve-then-commit giving back what a
 * request reserved and did not use. A scenario holds whichever one-minute window it runs in: should one end in the
 * middle of it, the scenario runs again as the tenant's twin, whose budget is untouched ({@link #inOneWindow}).
 */
class RateLimitEndToEndTest {

    static final String MODEL = "meta-llama/Llama-3.1-8B-Instruct";
    static final long WINDOW_MILLIS = 60_000;
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
        StringBuilder tenants = new StringBuilder();
        for (String twin : List.of("", "-2")) {
            for (String tenant : List.of("rpm", "tpm", "per-model")) {
                lines.append(ApiKeys.line("sk-" + tenant + twin, tenant + twin));
            }
            tenants.append("""
                        - name: rpm%1$s
                          limits: {requestsPerMinute: 3, tokensPerMinute: 100000}
                        - name: tpm%1$s
                          limits: {tokensPerMinute: 20000}
                        - name: per-model%1$s
                          modelLimits:
                            - {model: "%2$s", requestsPerMinute: 1}
                    """.formatted(twin, adapter));
        }
        lines.append(ApiKeys.line("sk-free", "free"));
        Files.writeString(keys, lines);
        String config = GatewayHarness.fleetConfig(fleet, MODEL) + """
                  auth:
                    apiKeys: {file: "%s"}
                  tenants:
                %s    - name: free
                  rateLimits:
                    defaultMaxTokens: 1000
                """.formatted(keys, tenants);
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

    /** A scenario's requests, all made as one tenant. */
    interface Scenario {
        void run(TenantRun run) throws Exception;
    }

    /**
     * Runs {@code scenario} as {@code tenant} and, should a window end in the middle of it, once more as the tenant's
     * twin ({@code tenant-2}): its budget is untouched, and the run, a second or two, cannot straddle another
     * boundary.
     */
    static void inOneWindow(GatewayHarness gateway, String tenant, Scenario scenario) throws Exception {
        try {
            scenario.run(new TenantRun(gateway, tenant));
        } catch (WindowEnded straddled) {
            scenario.run(new TenantRun(gateway, tenant + "-2"));
        }
    }

    /** One run of a scenario: it stops with {@link WindowEnded} at a response counted in a later window. */
    static final class TenantRun {
        private final GatewayHarness gateway;
        private final String tenant;
        private OptionalLong window = OptionalLong.empty();

        TenantRun(GatewayHarness gateway, String tenant) {
            this.gateway = gateway;
            this.tenant = tenant;
        }

        HttpResponse<String> chat(String model, String extra) throws Exception {
            HttpResponse<String> r = RateLimitEndToEndTest.chat(gateway, tenant, model, extra);
            OptionalLong counted = RateLimitWindows.window(r, System.currentTimeMillis(), WINDOW_MILLIS);
            if (window.isEmpty()) {
                window = counted;
            } else if (counted.isPresent() && counted.getAsLong() != window.getAsLong()) {
                throw new WindowEnded();
            }
            return r;
        }
    }

    /** A run's requests were counted in two windows. */
    static final class WindowEnded extends RuntimeException {
        WindowEnded() {
            super("a rate-limit window ended during the run", null, false, false);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("gateways")
    void overTheRequestLimitIsA429WithRetryAfterAndEveryHeader(String store) throws Exception {
        inOneWindow(gateway(store), "rpm", run -> {
            for (long expected = 2; expected >= 0; expected--) {
                HttpResponse<String> ok = run.chat(MODEL, ",\"max_tokens\":2");
                assertThat(ok.statusCode()).isEqualTo(200);
                for (String h : HEADERS) {
                    assertThat(ok.headers().firstValue(h)).as(h).isPresent();
                }
                assertThat(header(ok, "x-ratelimit-limit-requests")).isEqualTo(3);
                assertThat(header(ok, "x-ratelimit-remaining-requests")).isEqualTo(expected);
                assertThat(header(ok, "x-ratelimit-limit-tokens")).isEqualTo(100000);
                assertThat(ok.headers().firstValue("x-ratelimit-reset-requests").orElseThrow())
                        .matches("\\d+(\\.\\d)?s|\\d+ms");
            }
            HttpResponse<String> refused = run.chat(MODEL, ",\"max_tokens\":2");
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
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("gateways")
    void theUnusedPartOfAReservationIsGivenBackWhenTheRequestEnds(String store) throws Exception {
        inOneWindow(gateway(store), "tpm", run -> {
            long limit = 20000;
            // no max_tokens: the reservation is the prompt estimate plus defaultMaxTokens (1000); the model writes 256
            HttpResponse<String> first = run.chat(MODEL, "");
            assertThat(first.statusCode()).isEqualTo(200);
            long reserved = limit - header(first, "x-ratelimit-remaining-tokens");
            long used = JSON.readTree(first.body()).path("usage").path("total_tokens").asLong();
            assertThat(reserved).isGreaterThan(1000);
            assertThat(used).isPositive().isLessThan(reserved);
            // every later request sees what the earlier ones really used plus its own reservation, not their
            // reservations
            long usedBefore = used;
            boolean settled = false;
            for (int i = 0; i < 5 && !settled; i++) {
                HttpResponse<String> next = run.chat(MODEL, "");
                assertThat(next.statusCode()).isEqualTo(200);
                settled = header(next, "x-ratelimit-remaining-tokens") == limit - usedBefore - reserved;
                usedBefore += JSON.readTree(next.body()).path("usage").path("total_tokens").asLong();
            }
            assertThat(settled).as("a later request saw the first one's real usage in place of its reservation")
                    .isTrue();
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("gateways")
    void aPerModelLimitCountsOnlyThatModel(String store) throws Exception {
        inOneWindow(gateway(store), "per-model", run -> {
            HttpResponse<String> first = run.chat(adapter, ",\"max_tokens\":2");
            assertThat(first.statusCode()).isEqualTo(200);
            assertThat(header(first, "x-ratelimit-remaining-requests")).isZero();
            assertThat(run.chat(adapter, ",\"max_tokens\":2").statusCode()).isEqualTo(429);
            HttpResponse<String> base = run.chat(MODEL, ",\"max_tokens\":2");
            assertThat(base.statusCode()).isEqualTo(200);
            assertThat(base.headers().map().keySet()).noneMatch(h -> h.startsWith("x-ratelimit-"));
        });
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
