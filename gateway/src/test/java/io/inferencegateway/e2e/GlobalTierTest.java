package io.inferencegateway.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.inferencegateway.testing.GatewayHarness;
import io.inferencegateway.testing.TestUpstream;

/**
 * A global tier over a real cluster gateway, a cluster that refuses for load and one that refuses for a tenant's
 * limit, and an external provider (docs/global.md): what each target is sent, which refusals fail over, and what the
 * tier counts per target. Routing is round-robin here so that each request's path is known; how the tier chooses is
 * tested with its plugins.
 */
class GlobalTierTest {

    static final HttpClient HTTP = HttpClient.newHttpClient();
    static final String MODEL = "meta-llama/Llama-3.1-8B-Instruct";
    static final String NO_EJECTION = "outlierDetection: {consecutiveFailures: 0, failurePercent: 0}";

    static TestUpstream pod;
    static GatewayHarness cluster;
    static TestUpstream overloadedCluster;
    static TestUpstream limitingCluster;
    static TestUpstream provider;
    static TestUpstream failingProvider;
    static GatewayHarness tier;
    static Path providerKey;

    @BeforeAll
    static void start() throws Exception {
        pod = new TestUpstream().behave(TestUpstream.chatCompletion(MODEL, 1000, 500));
        cluster = GatewayHarness.start(GatewayHarness.config(MODEL, "round-robin", pod.address()));
        overloadedCluster = new TestUpstream().behave(new TestUpstream.Json(429,
                "{\"error\":{\"message\":\"saturated\",\"type\":\"overloaded\"}}",
                Map.of("x-gateway-dropped-reason", "queue_full", "Retry-After", "1")));
        limitingCluster = new TestUpstream().behave(new TestUpstream.Json(429,
                "{\"error\":{\"message\":\"over the tenant's budget\",\"type\":\"rate_limit_exceeded\"}}"));
        provider = new TestUpstream().behave(TestUpstream.chatCompletion("llama-3.1-8b", 1000, 500));
        failingProvider = new TestUpstream().behave(new TestUpstream.Json(500, "{\"error\":{\"message\":\"oops\"}}"));
        providerKey = Files.createTempFile("provider", ".key");
        Files.writeString(providerKey, "sk-provider-secret\n");
        tier = GatewayHarness.start("""
                apiVersion: inferencegateway.io/v1alpha1
                kind: InferenceGatewayConfig
                metadata: {name: tier}
                spec:
                  observability: {accessLog: true}
                  global:
                    region: home
                    clusters:
                      - {name: real, url: "http://%s", region: home, price: {input: 0.5, output: 2.0}}
                      - {name: overloaded, url: "http://%s", region: home}
                      - {name: limiting, url: "http://%s", region: away}
                    providers:
                      - name: overflow-ai
                        baseUrl: "http://%s/openai/v1"
                        apiKeyFile: %s
                        region: away
                        models: {"%s": llama-3.1-8b, overflow-model: llama-3.1-8b}
                        price: {input: 1.0, output: 4.0}
                      - {name: failing-ai, baseUrl: "http://%s/v1", models: {"%s-adapter": x}}
                  schedulers:
                    - {name: spill, modelName: "%s", policy: round-robin, targets: [overloaded, real], %s}
                    - {name: limited, modelName: limited-model, policy: round-robin, targets: [limiting], %s}
                    - {name: overflow, modelName: overflow-model, policy: round-robin, targets: [overflow-ai], %s}
                    - {name: failing, modelName: "%s-adapter", policy: round-robin, targets: [failing-ai, real], %s}
                """.formatted("127.0.0.1:" + cluster.port(), overloadedCluster.address(), limitingCluster.address(),
                provider.address(), providerKey, MODEL, failingProvider.address(), MODEL, MODEL, NO_EJECTION,
                NO_EJECTION, NO_EJECTION, MODEL, NO_EJECTION));
    }

    @AfterAll
    static void stop() throws Exception {
        tier.close();
        cluster.close();
        for (TestUpstream u : new TestUpstream[] {pod, overloadedCluster, limitingCluster, provider, failingProvider}) {
            u.close();
        }
        Files.deleteIfExists(providerKey);
    }

    static HttpResponse<String> chat(String model) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(tier.baseUrl() + "/v1/chat/completions"))
                .header("Content-Type", "application/json").header("Authorization", "Bearer client-key")
                .header("x-gateway-priority", "critical")
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"" + model
                        + "\",\"messages\":[{\"role\":\"user\",\"content\":\"hello\"}]}"))
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    /** What a target stub received besides the tier's polls of its capacity summary. */
    static java.util.List<TestUpstream.Received> inferences(TestUpstream target) {
        return target.received().stream().filter(q -> q.method().equals("POST")).toList();
    }

    static String metrics() throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(tier.baseUrl() + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    @Test
    void aClusterRefusingForLoadFailsOverToTheNextAndTheServedTokensArePricedAtItsRate() throws Exception {
        int before = pod.received().size();
        for (int i = 0; i < 4; i++) {
            HttpResponse<String> r = chat(MODEL);
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        }
        assertThat(pod.received().size() - before).as("every request ends on the real cluster's pod").isEqualTo(4);
        var sent = inferences(overloadedCluster).get(0); // round-robin sent it some first
        assertThat(sent.headers().get("x-gateway-priority")).as("the cluster hears the resolved priority")
                .isEqualTo("1");
        assertThat(sent.headers().get("Authorization")).isEqualTo("Bearer client-key");

        String m = metrics();
        assertThat(m).contains("inference_gateway_upstream_retries_total{pool=\"spill\",reason=\"429\"}");
        // 4 requests x (1000 x 0.5 + 500 x 2.0) / 1e6 = 0.006
        assertThat(m).containsPattern("inference_gateway_target_spend_total\\{pool=\"spill\",target=\"real\"} 0\\.006");
        assertThat(m).containsPattern(
                "inference_gateway_target_tokens_total\\{pool=\"spill\",target=\"real\",type=\"output\"} 2000\\.0");
        assertThat(m).as("the home region served it").contains(
                "inference_gateway_global_spills_total{pool=\"spill\",target=\"real\"} 0.0");
    }

    @Test
    void aTargetsServerErrorFailsOverToTheNext() throws Exception {
        for (int i = 0; i < 2; i++) { // round-robin: at least one starts at the failing provider
            HttpResponse<String> r = chat(MODEL + "-adapter"); // the real cluster serves it as an adapter
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        }
        int failed = inferences(failingProvider).size();
        assertThat(failed).isPositive();
        assertThat(metrics()).contains(
                "inference_gateway_upstream_retries_total{pool=\"failing\",reason=\"500\"} " + failed + ".0");
    }

    @Test
    void aClustersRefusalForATenantsLimitIsPassedOnNotRetried() throws Exception {
        int before = inferences(limitingCluster).size();
        HttpResponse<String> r = chat("limited-model");
        assertThat(r.statusCode()).isEqualTo(429);
        assertThat(r.body()).contains("rate_limit_exceeded");
        assertThat(inferences(limitingCluster).size() - before).isEqualTo(1);
    }

    @Test
    void aProviderGetsItsOwnModelNameItsKeyAndItsPathAndCountsAsASpill() throws Exception {
        int before = inferences(provider).size();
        HttpResponse<String> r = chat("overflow-model");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(provider.received()).as("a provider's capacity is never polled")
                .allMatch(q -> q.method().equals("POST"));
        var sent = inferences(provider).get(before);
        assertThat(sent.uri()).isEqualTo("/openai/v1/chat/completions");
        assertThat(sent.bodyText()).contains("\"model\":\"llama-3.1-8b\"").doesNotContain("overflow-model");
        assertThat(sent.headers().get("Authorization")).isEqualTo("Bearer sk-provider-secret");
        assertThat(sent.headers().contains("x-gateway-priority")).isFalse();
        assertThat(metrics()).contains(
                "inference_gateway_global_spills_total{pool=\"overflow\",target=\"overflow-ai\"} 1.0");
    }
}
