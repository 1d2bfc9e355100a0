package io.inferencegateway.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.inferencegateway.testing.GatewayHarness;
import io.inferencegateway.testing.TestUpstream;

/**
 * Failover before the first byte: a pod that resets the connection or answers 502/503 before anything reached the
 * client is replaced by another pod of the pool, within {@code maxAttempts} and the retry budget; once a stream's
 * bytes flowed, a failing pod ends it with an SSE error and nothing is retried. Outlier ejection is off here (its own
 * test is {@link OutlierEjectionTest}), so each request's path is the round-robin one.
 */
class FailoverTest {

    static final HttpClient HTTP = HttpClient.newHttpClient();
    static final String NO_EJECTION = "outlierDetection: {consecutiveFailures: 0, failurePercent: 0}";
    static TestUpstream good;
    static TestUpstream bad502;
    static TestUpstream bad503;
    static TestUpstream resets;
    static TestUpstream dies;
    static TestUpstream[] all503;
    static TestUpstream budgetless503;
    static TestUpstream budgetlessGood;
    static GatewayHarness gateway;

    @BeforeAll
    static void start() throws Exception {
        good = new TestUpstream().behave(new TestUpstream.Json(200, "{\"ok\":true}"));
        bad502 = new TestUpstream().behave(new TestUpstream.Json(502, "{\"error\":\"bad gateway\"}"));
        bad503 = new TestUpstream().behave(new TestUpstream.Json(503, "{\"error\":\"overloaded\"}"));
        resets = new TestUpstream().behave(new TestUpstream.Reset());
        dies = new TestUpstream().behave(new TestUpstream.DieMidStream(2, 5));
        all503 = new TestUpstream[4];
        for (int i = 0; i < all503.length; i++) {
            all503[i] = new TestUpstream().behave(new TestUpstream.Json(503, "{\"error\":\"overloaded\"}"));
        }
        budgetless503 = new TestUpstream().behave(new TestUpstream.Json(503, "{\"error\":\"overloaded\"}"));
        budgetlessGood = new TestUpstream().behave(new TestUpstream.Json(200, "{\"ok\":true}"));
        gateway = GatewayHarness.start("""
                kind: InferenceGatewayConfig
                spec:
                  schedulers:
                    - {name: p502, modelName: m502, policy: round-robin, endpoints: ["%s", "%s"], %s}
                    - {name: p503, modelName: m503, policy: round-robin, endpoints: ["%s", "%s"], %s}
                    - {name: preset, modelName: mreset, policy: round-robin, endpoints: ["%s", "%s"], %s}
                    - {name: pdies, modelName: mdies, policy: round-robin, endpoints: ["%s", "%s"], %s}
                    - {name: pall, modelName: mall, policy: round-robin, endpoints: ["%s", "%s", "%s", "%s"], %s}
                    - name: pbudget
                      modelName: mbudget
                      policy: round-robin
                      endpoints: ["%s", "%s"]
                      failover: {retryBudgetPercent: 0, minRetries: 0}
                      %s
                """.formatted(bad502.address(), good.address(), NO_EJECTION,
                bad503.address(), good.address(), NO_EJECTION,
                resets.address(), good.address(), NO_EJECTION,
                dies.address(), good.address(), NO_EJECTION,
                all503[0].address(), all503[1].address(), all503[2].address(), all503[3].address(), NO_EJECTION,
                budgetless503.address(), budgetlessGood.address(), NO_EJECTION));
    }

    @AfterAll
    static void stop() throws Exception {
        gateway.close();
        for (TestUpstream u : new TestUpstream[] {good, bad502, bad503, resets, dies, budgetless503, budgetlessGood}) {
            u.close();
        }
        for (TestUpstream u : all503) {
            u.close();
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"m502, p502, 502", "m503, p503, 503", "mreset, preset, reset"})
    void aFailingPodBeforeTheFirstByteIsReplacedByAnother(String model, String pool, String reason) throws Exception {
        TestUpstream failing = switch (reason) {
            case "502" -> bad502;
            case "503" -> bad503;
            default -> resets;
        };
        int failingBefore = failing.received().size();
        int goodBefore = good.received().size();
        double retriesBefore = metric("inference_gateway_upstream_retries_total",
                "pool=\"" + pool + "\"", "reason=\"" + reason + "\"");
        for (int i = 0; i < 4; i++) {
            HttpResponse<String> r = post(model, false);
            assertThat(r.statusCode()).as("request %d to %s", i, model).isEqualTo(200);
            assertThat(r.body()).isEqualTo("{\"ok\":true}");
        }
        int failed = failing.received().size() - failingBefore;
        assertThat(failed).as("round-robin sent some first attempts to the failing pod").isGreaterThanOrEqualTo(1);
        assertThat(good.received().size() - goodBefore).as("every request ended on the good pod").isEqualTo(4);
        assertThat(metric("inference_gateway_upstream_retries_total", "pool=\"" + pool + "\"",
                "reason=\"" + reason + "\"") - retriesBefore).isEqualTo(failed);
    }

    @Test
    void attemptsAreBoundedAndTheLastRefusalIsAnsweredInOpenAisShape() throws Exception {
        HttpResponse<String> r = post("mall", false);
        assertThat(r.statusCode()).isEqualTo(503);
        // found by the chaos soak: vLLM's flat error body went to the client as it came, which the SDK reads no type from
        assertThat(r.body()).contains("\"type\":\"server_error\"", "\"code\":\"upstream_refused\"")
                .doesNotContain("overloaded");
        int total = 0;
        for (TestUpstream u : all503) {
            total += u.received().size();
        }
        assertThat(total).as("maxAttempts 3 by default: the first try and two retries").isEqualTo(3);
    }

    @Test
    void aSpentRetryBudgetRelaysTheFailure() throws Exception {
        double exhaustedBefore = metric("inference_gateway_upstream_retry_budget_exhausted_total",
                "pool=\"pbudget\"");
        int statuses503 = 0;
        for (int i = 0; i < 4; i++) {
            int status = post("mbudget", false).statusCode();
            assertThat(status).isIn(200, 503);
            statuses503 += status == 503 ? 1 : 0;
        }
        assertThat(statuses503).as("the 503 pod's answers reach the client: no budget to retry")
                .isEqualTo(budgetless503.received().size()).isGreaterThanOrEqualTo(1);
        assertThat(metric("inference_gateway_upstream_retry_budget_exhausted_total", "pool=\"pbudget\"")
                - exhaustedBefore).isEqualTo(statuses503);
    }

    @Test
    void afterBytesFlowedAFailureEndsTheStreamAndIsNotRetried() throws Exception {
        int goodBefore = good.received().size();
        int diesBefore = dies.received().size();
        int errors = 0;
        for (int i = 0; i < 2; i++) {
            HttpResponse<String> r = post("mdies", true);
            assertThat(r.statusCode()).isEqualTo(200);
            if (r.body().contains("\"error\"")) {
                errors++;
                assertThat(r.body()).as("the events relayed before the pod died")
                        .startsWith(TestUpstream.sseEvent(0) + TestUpstream.sseEvent(1));
            }
        }
        assertThat(dies.received().size() - diesBefore).isEqualTo(1);
        assertThat(errors).as("the stream on the dying pod ends with an SSE error").isEqualTo(1);
        assertThat(good.received().size() - goodBefore).as("nothing was retried on the good pod").isEqualTo(1);
    }

    private static HttpResponse<String> post(String model, boolean stream) throws Exception {
        String body = "{\"model\":\"" + model + "\",\"prompt\":\"hi\"" + (stream ? ",\"stream\":true" : "") + "}";
        return HTTP.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/v1/completions"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The sum of the samples of {@code name} whose labels contain every one of {@code labels}. */
    static double metric(String name, String... labels) throws Exception {
        return metric(gateway, name, labels);
    }

    static double metric(GatewayHarness gateway, String name, String... labels) throws Exception {
        String text = HTTP.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        double sum = 0;
        for (String line : text.split("\n")) {
            if (!line.startsWith(name + "{") && !line.startsWith(name + " ")) {
                continue;
            }
            boolean all = true;
            for (String l : labels) {
                all &= line.contains(l);
            }
            if (all) {
                sum += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return sum;
    }
}
