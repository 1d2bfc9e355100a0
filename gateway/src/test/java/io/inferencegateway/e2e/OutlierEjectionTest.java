package io.inferencegateway.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.inferencegateway.simulator.FleetOptions;
import io.inferencegateway.simulator.SimulatedFleet;
import io.inferencegateway.testing.GatewayHarness;
import io.inferencegateway.testing.TestUpstream;

/**
 * A pod that answers 503 is ejected after its consecutive failures, gets no requests while ejected, and is tried
 * again when its ejection time is up; healthy again, it gets its round-robin share back. Metered and logged.
 */
class OutlierEjectionTest {

    static final HttpClient HTTP = HttpClient.newHttpClient();
    static TestUpstream flaky;
    static TestUpstream good1;
    static TestUpstream good2;
    static GatewayHarness gateway;

    @BeforeAll
    static void start() throws Exception {
        flaky = new TestUpstream().behave(new TestUpstream.Json(503, "{\"error\":\"overloaded\"}"));
        good1 = new TestUpstream();
        good2 = new TestUpstream();
        gateway = GatewayHarness.start("""
                kind: InferenceGatewayConfig
                spec:
                  schedulers:
                    - name: pool
                      modelName: m
                      policy: round-robin
                      endpoints: ["%s", "%s", "%s"]
                      outlierDetection: {consecutiveFailures: 2, baseEjectionTime: 1s, maxEjectionPercent: 34}
                """.formatted(flaky.address(), good1.address(), good2.address()));
    }

    @AfterAll
    static void stop() throws Exception {
        gateway.close();
        flaky.close();
        good1.close();
        good2.close();
    }

    @Test
    void aFailingPodIsEjectedThenReadmitted() throws Exception {
        for (int i = 0; i < 6; i++) {
            assertThat(post().statusCode()).as("failover hides the 503s").isEqualTo(200);
        }
        assertThat(flaky.received()).as("round-robin reached the flaky pod twice, then it was ejected").hasSize(2);
        String pod = "pod=\"" + flaky.address() + "\"";
        assertThat(FailoverTest.metric(gateway, "inference_gateway_outlier_ejections_total", pod)).isEqualTo(1);
        assertThat(FailoverTest.metric(gateway, "inference_gateway_outlier_ejected", "pool=\"pool\"")).isEqualTo(1);

        for (int i = 0; i < 6; i++) {
            assertThat(post().statusCode()).isEqualTo(200);
        }
        assertThat(flaky.received()).as("an ejected pod gets nothing").hasSize(2);

        flaky.behave(new TestUpstream.Json(200, "{\"ok\":true}"));
        await("readmitted when its ejection time is up").atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> FailoverTest.metric(gateway, "inference_gateway_outlier_ejected", "pool=\"pool\"") == 0);
        for (int i = 0; i < 6; i++) {
            assertThat(post().statusCode()).isEqualTo(200);
        }
        assertThat(flaky.received()).as("healthy again: its share of six round-robin picks").hasSize(4);
        assertThat(FailoverTest.metric(gateway, "inference_gateway_outlier_ejections_total", pod)).isEqualTo(1);
    }

    @Test
    void aKilledSimulatedPodIsEjectedWithoutAFailedRequestAndServesAgainWhenRevived() throws Exception {
        try (SimulatedFleet fleet = SimulatedFleet.start(FleetOptions.builder().model("sim").pods(4).timeScale(20)
                .build());
             GatewayHarness gw = GatewayHarness.start(GatewayHarness.fleetConfig(fleet, "sim", "policy: round-robin",
                     "outlierDetection: {baseEjectionTime: 1s}"))) {
            fleet.pod(0).kill();
            for (int i = 0; i < 40; i++) {
                assertThat(post(gw, "sim").statusCode()).as("request %d: failover hides the dead pod", i)
                        .isEqualTo(200);
            }
            String pod = "pod=\"" + fleet.endpoints().get(0) + "\"";
            double ejections = FailoverTest.metric(gw, "inference_gateway_outlier_ejections_total", pod);
            assertThat(ejections).as("five refused connections in a row, then out").isGreaterThanOrEqualTo(1);
            assertThat(FailoverTest.metric(gw, "inference_gateway_upstream_retries_total", "reason=\"connect\""))
                    .as("the dead pod was tried five times, then once per readmission (each probe re-ejects it), "
                            + "not every fourth request")
                    .isEqualTo(4 + ejections);

            fleet.pod(0).revive();
            long served = fleet.pod(0).requestsReceived();
            await("readmitted and healthy: it serves again").atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(50)).until(() -> {
                        assertThat(post(gw, "sim").statusCode()).isEqualTo(200);
                        return fleet.pod(0).requestsReceived() > served;
                    });
        }
    }

    private static HttpResponse<String> post() throws Exception {
        return post(gateway, "m");
    }

    private static HttpResponse<String> post(GatewayHarness gw, String model) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(gw.baseUrl() + "/v1/completions"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"" + model
                        + "\",\"prompt\":\"hi\",\"max_tokens\":4}")).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
