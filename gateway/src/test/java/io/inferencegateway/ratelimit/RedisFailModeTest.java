package io.inferencegateway.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.inferencegateway.auth.ApiKeys;
import io.inferencegateway.simulator.FleetOptions;
import io.inferencegateway.simulator.SimulatedFleet;
import io.inferencegateway.testing.GatewayHarness;
import io.inferencegateway.simulator.RedisServer;

/**
 * Redis killed while two gateways count on it, one failing open and one failing closed (docs/auth.md): each holds
 * its mode while Redis is gone, says so on /metrics, and counts again once Redis is back (empty, with no scripts
 * loaded, as a restarted Redis is).
 */
class RedisFailModeTest {

    static final String MODEL = "meta-llama/Llama-3.1-8B-Instruct";
    static final ObjectMapper JSON = new ObjectMapper();
    static final HttpClient HTTP = HttpClient.newHttpClient();
    static final Duration SOON = Duration.ofSeconds(30);

    static SimulatedFleet fleet;
    static RedisServer redis;
    static GatewayHarness failOpen;
    static GatewayHarness failClosed;

    @BeforeAll
    static void start() throws Exception {
        fleet = SimulatedFleet.start(FleetOptions.builder().pods(1).timeScale(50).model(MODEL).build());
        redis = RedisServer.start();
        Path keys = Files.createTempFile("api-keys", ".txt");
        Files.writeString(keys, ApiKeys.line("sk-limited", "limited") + ApiKeys.line("sk-free", "free"));
        String config = GatewayHarness.fleetConfig(fleet, MODEL) + """
                  auth:
                    apiKeys: {file: "%s"}
                  tenants:
                    - name: limited
                      limits: {requestsPerMinute: 100000, tokensPerMinute: 100000000}
                    - name: free
                  rateLimits:
                    redis: {url: "%s", failMode: %%s, timeout: 200ms}
                """.formatted(keys, redis.url());
        failOpen = GatewayHarness.start(config.formatted("open"));
        failClosed = GatewayHarness.start(config.formatted("closed"));
    }

    @AfterAll
    static void stop() throws Exception {
        failOpen.close();
        failClosed.close();
        fleet.close();
        redis.close();
    }

    static HttpResponse<String> chat(GatewayHarness gateway, String key) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/v1/chat/completions"))
                .header("Content-Type", "application/json").header("Authorization", "Bearer " + key)
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"" + MODEL
                        + "\",\"max_tokens\":2,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}"))
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    static boolean counted(HttpResponse<String> r) {
        return r.statusCode() == 200 && r.headers().firstValue("x-ratelimit-remaining-requests").isPresent();
    }

    static String metrics(GatewayHarness gateway) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    static double metric(GatewayHarness gateway, String series) throws Exception {
        for (String line : metrics(gateway).lines().toList()) {
            if (line.startsWith(series + " ")) {
                return Double.parseDouble(line.substring(series.length() + 1).trim());
            }
        }
        return Double.NaN;
    }

    @Test
    void eachGatewayHoldsItsFailModeWhileRedisIsDownAndCountsAgainWhenItReturns() throws Exception {
        for (GatewayHarness g : List.of(failOpen, failClosed)) {
            assertThat(counted(chat(g, "sk-limited"))).isTrue();
            assertThat(metric(g, "inference_gateway_rate_limit_store_up")).isEqualTo(1.0);
        }

        redis.stop();

        // fail open: served, uncounted (so no x-ratelimit headers), and metered
        await().atMost(SOON).until(() -> {
            HttpResponse<String> r = chat(failOpen, "sk-limited");
            return r.statusCode() == 200 && !counted(r);
        });
        assertThat(metric(failOpen, "inference_gateway_rate_limit_store_up")).isZero();
        assertThat(metric(failOpen, "inference_gateway_rate_limit_store_errors_total{outcome=\"admitted\"}"))
                .isPositive();
        // fail closed: 503 in the OpenAI shape
        HttpResponse<String> refused = chat(failClosed, "sk-limited");
        assertThat(refused.statusCode()).isEqualTo(503);
        assertThat(JSON.readTree(refused.body()).path("error").path("code").asText())
                .isEqualTo("rate_limiter_unavailable");
        assertThat(metric(failClosed, "inference_gateway_rate_limit_store_errors_total{outcome=\"refused\"}"))
                .isPositive();
        // a tenant without limits never needs Redis, whatever the mode
        assertThat(chat(failClosed, "sk-free").statusCode()).isEqualTo(200);

        redis.restart();

        for (GatewayHarness g : List.of(failOpen, failClosed)) {
            await().atMost(SOON).until(() -> counted(chat(g, "sk-limited")));
            assertThat(metric(g, "inference_gateway_rate_limit_store_up")).isEqualTo(1.0);
        }
    }
}
