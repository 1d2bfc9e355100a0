package io.inferencegateway.lab.regions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import java.util.stream.Collectors;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.errors.OpenAIServiceException;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import io.inferencegateway.lab.regions.DelayProxy.CutMode;
import io.inferencegateway.testing.TestPki;
import io.inferencegateway.testing.TestUpstream;

/**
 * The global tier end to end (docs/global.md): two cluster regions, each a gateway in front of its own simulated pods
 * in a network namespace of its own, reached over links with real delay (near: 5 ms each way, in the tier's home
 * region; far: 40 ms, cheaper); an HTTPS provider stand-in whose certificate comes from a test CA the tier trusts
 * through {@code spec.global.tls.caFile}; and the tier itself, the runnable jar's {@code serve} on the host, with API
 * keys for five tenants. Everything a client does goes through the OpenAI Java SDK; where a request went is read from
 * the tier's access log ({@code target}, {@code attempts}) by its {@code x-request-id}.
 *
 * <p>The regions and the tier start once for the class and the tests run in order, each leaving the regions as it
 * found them. Needs root for the namespaces (CI runs as root); skipped elsewhere. Timing assertions are lower bounds or
 * generous upper bounds only: the box is small and shared.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class GlobalTierIT {

    static final String MODEL = "meta-llama/Llama-3.1-8B-Instruct";
    static final String VENDOR_MODEL = "vendor-llama-8b";
    static final String HOME = "us-east-1";
    static final String AWAY = "eu-west-1";
    static final long BUDGET = 10;
    /** Requests in a row served at the far cluster at the first try that say the tier has found a fault. */
    static final int SETTLED = 10;
    static final Path DIR = Path.of("target", "regions", "global-tier");

    /** Tenants and their keys: anyone; pinned to the far region, no providers; pinned home; no providers; metered. */
    static final Map<String, String> KEYS = Map.of("acme", "sk-acme-e2e", "eu-bank", "sk-eu-bank-e2e",
            "home-only", "sk-home-only-e2e", "no-vendor", "sk-no-vendor-e2e", "metered", "sk-metered-e2e");

    static Region near;
    static Region far;
    static TestUpstream vendor;
    static GlobalTier tier;
    static String tierConfig;
    static final Map<String, OpenAIClient> CLIENTS = new ConcurrentHashMap<>();
    static final AtomicInteger REQUEST_IDS = new AtomicInteger();
    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    /** Where the tier sent one request, as its access log says, and what the client got. */
    record Outcome(String requestId, long offsetMillis, long millis, int status, String target, int attempts,
                   String reason, String model, OpenAIServiceException error) {

        boolean servedAtFirstTry(String by) {
            return status == 200 && by.equals(target) && attempts == 1;
        }
    }

    @BeforeAll
    static void start() throws Exception {
        assumeTrue(RegionNamespace.available(), "network namespaces need root");
        long began = System.nanoTime();
        Files.createDirectories(DIR);
        Path clusterToken = DIR.resolve("cluster-token");
        Files.writeString(clusterToken, "cluster-token-e2e\n");
        Path vendorKey = DIR.resolve("vendor-key");
        Files.writeString(vendorKey, "sk-vendor-secret\n");
        Path apiKeys = DIR.resolve("api-keys");
        StringBuilder keyLines = new StringBuilder();
        for (Map.Entry<String, String> k : KEYS.entrySet()) {
            keyLines.append("sha256:").append(sha256(k.getValue())).append(' ').append(k.getKey()).append('\n');
        }
        Files.writeString(apiKeys, keyLines);
        TestPki pki = TestPki.create(DIR.resolve("pki"));
        vendor = new TestUpstream(pki.serverContext(pki.server(), false)).behave(new TestUpstream.Json(200, """
                {"id":"chatcmpl-vendor","object":"chat.completion","created":1,"model":"%s","choices":[{"index":0,\
                "message":{"role":"assistant","content":"from the vendor"},"finish_reason":"stop"}],\
                "usage":{"prompt_tokens":12,"completion_tokens":3,"total_tokens":15}}""".formatted(VENDOR_MODEL)));

        List<Region> regions = Region.startAll(List.of(
                RegionSpec.of("gt-near", 221).withPods(2).withPodOptions("--max-num-seqs", "2")
                        .withLinkDelay(Duration.ofMillis(5)).withGatewayConfig(cluster("near", HOME, clusterToken)),
                RegionSpec.of("gt-far", 222).withPods(1).withLinkDelay(Duration.ofMillis(40))
                        .withGatewayConfig(cluster("far", AWAY, clusterToken))));
        near = regions.get(0);
        far = regions.get(1);
        long regionsUp = System.nanoTime();

        tierConfig = tierConfig(clusterToken, vendorKey, apiKeys, pki.caFile());
        tier = GlobalTier.start(DIR, tierConfig, Duration.ofSeconds(120));
        awaitHome();
        System.out.printf("global tier suite: regions up in %d ms (near %d ms, far %d ms), tier serving home %d ms "
                + "later%n", (regionsUp - began) / 1_000_000, near.startupTime().toMillis(),
                far.startupTime().toMillis(), (System.nanoTime() - regionsUp) / 1_000_000);
    }

    @AfterAll
    static void stop() {
        if (tier != null) {
            tier.close();
        }
        for (Region r : new Region[] {near, far}) {
            if (r != null) {
                r.close();
            }
        }
        if (vendor != null) {
            vendor.close();
        }
    }

    @Test
    @Order(1)
    void standardAndCriticalRequestsGoToTheNearHomeClusterWhileItHasRoom() {
        double nearBefore = served("near");
        double farBefore = served("far");

        List<Outcome> standard = send("acme", null, 10);
        List<Outcome> critical = send("acme", "critical", 5);

        assertThat(standard).allSatisfy(o -> assertThat(o.servedAtFirstTry("near")).as(o.toString()).isTrue());
        assertThat(critical).as("the fastest is the nearest while both are idle")
                .allSatisfy(o -> assertThat(o.servedAtFirstTry("near")).as(o.toString()).isTrue());
        assertThat(served("near") - nearBefore).as("the tier's count for the near cluster").isEqualTo(15);
        assertThat(served("far") - farBefore).isZero();
        assertThat(spills()).as("nothing spilled").isZero();
    }

    @Test
    @Order(2)
    void aTenantPinnedToTheFarRegionIsServedThereEvenWhileTheNearIsIdle() {
        List<Outcome> pinned = send("eu-bank", null, 5);
        List<Outcome> pinnedCritical = send("eu-bank", "critical", 3);

        assertThat(pinned).allSatisfy(o -> assertThat(o.servedAtFirstTry("far")).as(o.toString()).isTrue());
        assertThat(pinnedCritical).as("not even the fastest may break the pin")
                .allSatisfy(o -> assertThat(o.servedAtFirstTry("far")).as(o.toString()).isTrue());
        assertThat(send("acme", null, 1)).as("the others stay home")
                .allSatisfy(o -> assertThat(o.servedAtFirstTry("near")).as(o.toString()).isTrue());
    }

    @Test
    @Order(3)
    void aTenantsBudgetIsExactAcrossBothClusters() throws Exception {
        awaitAwayFromWindowEdge();
        ExecutorService clients = Executors.newFixedThreadPool(4);
        List<Future<Outcome>> sent = new ArrayList<>();
        long t0 = System.nanoTime();
        try {
            // standard requests stay home, sheddable ones go to the cheaper far cluster: one budget, two clusters
            for (int i = 0; i < 16; i++) {
                String priority = i % 2 == 0 ? null : "sheddable";
                sent.add(clients.submit(() -> chat("metered", priority, t0)));
            }
            List<Outcome> outcomes = new ArrayList<>();
            for (Future<Outcome> f : sent) {
                outcomes.add(f.get());
            }
            List<Outcome> ok = outcomes.stream().filter(o -> o.status() == 200).toList();
            List<Outcome> refused = outcomes.stream().filter(o -> o.status() == 429).toList();

            assertThat(ok).as("exactly the budget is served").hasSize((int) BUDGET);
            assertThat(refused).as("and the rest refused").hasSize(16 - (int) BUDGET);
            assertThat(ok.stream().map(Outcome::target).collect(Collectors.toSet())).as("by both clusters")
                    .containsExactlyInAnyOrder("near", "far");
            assertThat(refused).allSatisfy(o -> {
                assertThat(o.error().code()).contains("rate_limit_exceeded");
                assertThat(o.error().headers().values("Retry-After")).isNotEmpty();
                assertThat(o.target()).as("refused at the tier, sent nowhere").isNull();
            });
        } finally {
            clients.shutdownNow();
        }
    }

    @Test
    @Order(4)
    void standardRequestsSpillToTheFarRegionWhenTheNearSaturatesAndCriticalOnesGoWhereItIsFastest() throws Exception {
        double spillsBefore = spills();
        List<Socket> load = new ArrayList<>();
        try {
            for (int pod = 0; pod < near.spec().pods(); pod++) {
                admin(near, pod, "speed?factor=0.01"); // a token every ~35 ms: the streams below hold the pods
            }
            long loaded = System.nanoTime();
            for (int i = 0; i < 20; i++) { // 2 running and 8 waiting per pod: past the 5 waiting that saturate one
                load.add(longStream(near));
            }
            await("the tier to read the near cluster's queue").atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(50)).until(() -> queueSeenByTier(near) >= 10);
            System.out.printf("global tier suite: the tier read the near region's queue %d ms after its load began%n",
                    (System.nanoTime() - loaded) / 1_000_000);

            List<Outcome> standard = send("acme", null, 8);
            List<Outcome> critical = send("acme", "critical", 4);

            assertThat(standard).as("standard traffic spills to the far region, nothing fails")
                    .allSatisfy(o -> assertThat(o.servedAtFirstTry("far")).as(o.toString()).isTrue());
            assertThat(critical).as("critical traffic goes where it is served soonest: not the saturated near")
                    .allSatisfy(o -> assertThat(o.servedAtFirstTry("far")).as(o.toString()).isTrue());
            assertThat(spills() - spillsBefore).as("counted as spills").isGreaterThanOrEqualTo(12);
        } finally {
            for (Socket s : load) {
                s.close(); // the near gateway cancels the streams at its pods
            }
            for (int pod = 0; pod < near.spec().pods(); pod++) {
                admin(near, pod, "speed?factor=1");
            }
        }
        await("the near cluster's queue to drain").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                .until(() -> queueSeenByTier(near) == 0);
        awaitHome();
    }

    @Test
    @Order(5)
    void everyClusterDownOverflowsToTheHttpsProviderWithItsModelNameAndKeyButNotForATenantBarredFromIt() {
        int before = inferences(vendor).size();
        near.cutLink(CutMode.RESET);
        far.cutLink(CutMode.RESET);
        try {
            await("both clusters' summaries stale at the tier").atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> summaryAgeSeenByTier(near) > 1.5 && summaryAgeSeenByTier(far) > 1.5);
            List<Outcome> overflow = send("acme", null, 5);

            assertThat(overflow).as("served, by the provider").allSatisfy(o -> {
                assertThat(o.status()).as(o.toString()).isEqualTo(200);
                assertThat(o.target()).as(o.toString()).isEqualTo("vendor");
                assertThat(o.model()).as("the provider's name for the model").isEqualTo(VENDOR_MODEL);
            });
            List<TestUpstream.Received> got = inferences(vendor).subList(before, inferences(vendor).size());
            assertThat(got).hasSize(5).allSatisfy(r -> {
                assertThat(r.uri()).isEqualTo("/v1/chat/completions");
                assertThat(r.bodyText()).contains("\"model\":\"" + VENDOR_MODEL + "\"").doesNotContain(MODEL);
                assertThat(r.headers().get("Authorization")).as("the provider's key, not the client's")
                        .isEqualTo("Bearer sk-vendor-secret");
                assertThat(r.headers().contains("x-gateway-priority")).isFalse();
            });
            assertThat(vendor.tlsConnections()).as("over TLS, verified against the test CA").isPositive();

            for (String barred : List.of("no-vendor", "eu-bank")) {
                Outcome refused = send(barred, null, 1).get(0);
                assertThat(refused.status()).as(barred + ": " + refused).isGreaterThanOrEqualTo(500);
                assertOpenAiShaped(refused);
            }
            assertThat(inferences(vendor)).as("the barred tenants' requests never reached the provider")
                    .hasSize(before + 5);
        } finally {
            near.restoreLink();
            far.restoreLink();
        }
        awaitHome();
    }

    @Test
    @Order(6)
    void aNearClusterAnswering503FailsOverToTheFarAndNoRequestFails() throws Exception {
        for (int pod = 0; pod < near.spec().pods(); pod++) {
            admin(near, pod, "inference?fault=unavailable");
        }
        try {
            OpenAIClient direct = OpenAIOkHttpClient.builder().baseUrl(near.baseUrl() + "/v1").apiKey("unused")
                    .maxRetries(0).timeout(Duration.ofSeconds(30)).build();
            int status = 0;
            try {
                direct.chat().completions().create(params(null, "direct"));
            } catch (OpenAIServiceException e) {
                status = e.statusCode();
            }
            assertThat(status).as("the near cluster itself answers").isEqualTo(503);

            List<Outcome> outcomes = sendUntilDetected();
            report("a 503 from the near cluster", outcomes);
            assertThat(outcomes).as("every request succeeds")
                    .allSatisfy(o -> assertThat(o.status()).as(o.toString()).isEqualTo(200));
        } finally {
            for (int pod = 0; pod < near.spec().pods(); pod++) {
                admin(near, pod, "inference?fault=none");
            }
        }
        awaitHome();
    }

    @Test
    @Order(7)
    void aKilledNearClusterFailsOverToTheFarAndATenantPinnedToItsRegionGetsAClearError() throws Exception {
        near.killGateway();
        try {
            List<Outcome> outcomes = sendUntilDetected();
            report("the near cluster killed", outcomes);
            assertThat(outcomes).as("every request succeeds")
                    .allSatisfy(o -> assertThat(o.status()).as(o.toString()).isEqualTo(200));

            int vendorBefore = inferences(vendor).size();
            Outcome pinned = chat("home-only", null, System.nanoTime());
            System.out.printf("global tier suite: a tenant pinned to the killed region got %d in %d ms: %s%n",
                    pinned.status(), pinned.millis(), pinned.error() == null ? "" : pinned.error().getMessage());
            // 503: naming the pin while the tier has the cluster ejected, else saying it stopped answering its polls
            assertThat(pinned.status()).as(pinned.toString()).isEqualTo(503);
            assertThat(pinned.error().getMessage()).containsAnyOf("pinned to region(s) " + HOME,
                    "has answered its capacity poll lately");
            assertOpenAiShaped(pinned);
            assertThat(pinned.millis()).as("ms: refused, not left to hang").isLessThan(20_000);
            assertThat(pinned.target()).as("nor sent elsewhere").isNotEqualTo("far");
            assertThat(inferences(vendor)).as("nor to the provider").hasSize(vendorBefore);
        } finally {
            Duration restart = near.restartGateway();
            long back = System.nanoTime();
            awaitHome();
            System.out.printf("global tier suite: near gateway restarted in %d ms, home again %d ms later%n",
                    restart.toMillis(), (System.nanoTime() - back) / 1_000_000);
        }
    }

    @Test
    @Order(8)
    void aBadGlobalConfigIsRefusedNamingItsPathAndABadReloadKeepsServing() throws Exception {
        String unknownTarget = tierConfig.replace("    - modelName: " + MODEL + "\n",
                "    - modelName: " + MODEL + "\n      targets: [near, nowhere]\n");
        String noModels = tierConfig.replaceAll("(?m)^\\s+models: \\{.*\\}\\n", "");
        assertThat(unknownTarget).isNotEqualTo(tierConfig);
        assertThat(noModels).isNotEqualTo(tierConfig);

        ExecutorService both = Executors.newFixedThreadPool(2);
        try {
            Future<GlobalTier.Refusal> a = both.submit(() -> GlobalTier.refuse(DIR, "unknown-target", unknownTarget,
                    Duration.ofSeconds(90)));
            Future<GlobalTier.Refusal> b = both.submit(() -> GlobalTier.refuse(DIR, "no-models", noModels,
                    Duration.ofSeconds(90)));
            GlobalTier.Refusal unknown = a.get();
            GlobalTier.Refusal bare = b.get();
            assertThat(unknown.exitCode()).as(unknown.output()).isEqualTo(2);
            assertThat(unknown.output()).contains("spec.schedulers[0].targets[1] 'nowhere' is not a cluster or "
                    + "provider of spec.global").doesNotContain("Exception");
            assertThat(bare.exitCode()).as(bare.output()).isEqualTo(2);
            assertThat(bare.output()).contains("spec.global.providers[0].models must map at least one local model")
                    .doesNotContain("Exception");
        } finally {
            both.shutdownNow();
        }

        tier.reload(unknownTarget);
        await("the reload refused").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                .until(() -> tier.log().contains("rejected config"));
        assertThat(tier.log()).contains("spec.schedulers[0].targets[1] 'nowhere'");
        assertThat(tier.isAlive()).isTrue();
        assertThat(send("acme", null, 3)).as("still serving on the config it had")
                .allSatisfy(o -> assertThat(o.servedAtFirstTry("near")).as(o.toString()).isTrue());
        tier.reload(tierConfig);
    }

    // ---- the regions and the tier ------------------------------------------------------------------------------

    /** A region's gateway as a cluster of the tier: the default config plus {@code spec.cluster}. */
    static BiFunction<RegionSpec, List<String>, String> cluster(String name, String region, Path token) {
        return (spec, pods) -> Region.defaultGatewayConfig(spec, pods).replace("spec:\n", """
                spec:
                  cluster: {name: %s, region: %s, tokenFile: %s}
                """.formatted(name, region, token.toAbsolutePath()));
    }

    static String tierConfig(Path clusterToken, Path vendorKey, Path apiKeys, Path ca) {
        return """
                apiVersion: inferencegateway.io/v1alpha1
                kind: InferenceGatewayConfig
                metadata: {name: global-tier}
                spec:
                  observability: {accessLog: true}
                  auth:
                    apiKeys: {file: %s}
                  tenants:
                    - {name: acme}
                    - {name: eu-bank, regions: [%s], providers: false}
                    - {name: home-only, regions: [%s]}
                    - {name: no-vendor, providers: false}
                    - {name: metered, limits: {requestsPerMinute: %d}}
                  rateLimits: {window: 1h}
                  global:
                    region: %s
                    clusterTokenFile: %s
                    summaryInterval: 250ms
                    tls: {caFile: %s}
                    clusters:
                      - {name: near, url: "%s", region: %s, price: {input: 0.10, output: 0.40}}
                      - {name: far, url: "%s", region: %s, price: {input: 0.05, output: 0.20}}
                    providers:
                      - name: vendor
                        baseUrl: "https://127.0.0.1:%d/v1"
                        apiKeyFile: %s
                        models: {"%s": %s}
                        price: {input: 1.00, output: 4.00}
                  schedulers:
                    - modelName: %s
                      # the suite's faults come back to back, within one 10 s window of the retry budget, and a
                      # cluster found failing comes back after seconds, not the default 30 s
                      failover: {minRetries: 30}
                      outlierDetection: {baseEjectionTime: 2s, maxEjectionTime: 10s}
                """.formatted(apiKeys.toAbsolutePath(), AWAY, HOME, BUDGET, HOME, clusterToken.toAbsolutePath(),
                ca.toAbsolutePath(), near.baseUrl(), HOME, far.baseUrl(), AWAY, vendor.port(),
                vendorKey.toAbsolutePath(), MODEL, VENDOR_MODEL, MODEL);
    }

    /** Until a standard request is served by the near cluster at the first try (everything back to normal). */
    static void awaitHome() {
        await("standard requests served at home").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> send("acme", null, 1).get(0).servedAtFirstTry("near"));
    }

    /** The rate-limit windows are fixed hours of the clock: a burst must not straddle two. */
    static void awaitAwayFromWindowEdge() throws InterruptedException {
        long hour = Duration.ofHours(1).toMillis();
        long left = hour - System.currentTimeMillis() % hour;
        if (left < 30_000) {
            Thread.sleep(left + 1_000);
        }
    }

    /** POST to the simulator's admin API of one of the region's pods. */
    static void admin(Region region, int pod, String action) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(region.podAdminUrl() + "/pods/" + pod
                + "/" + action)).POST(HttpRequest.BodyPublishers.noBody()).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    }

    /**
     * A long stream straight to the region's gateway over its link, as the region's own clients would send; its
     * response is never read, and closing the socket ends it.
     */
    static Socket longStream(Region region) throws IOException {
        String body = "{\"model\":\"" + MODEL + "\",\"messages\":[{\"role\":\"user\",\"content\":\"a long story\"}],"
                + "\"max_tokens\":4000,\"stream\":true}";
        Socket s = new Socket(region.gatewayAddress().getAddress(), region.gatewayAddress().getPort());
        OutputStream out = s.getOutputStream();
        out.write(("POST /v1/chat/completions HTTP/1.1\r\nHost: " + region.name() + "\r\nContent-Type: "
                + "application/json\r\nContent-Length: " + body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n"
                + body).getBytes(StandardCharsets.UTF_8));
        out.flush();
        return s;
    }

    /** The cluster's queued requests as the tier last read them from its capacity summary. */
    static double queueSeenByTier(Region region) {
        return tier.metricSum("inference_pool_per_pod_queue_size",
                "model_server_pod=\"127.0.0.1:" + region.gatewayAddress().getPort() + "\"");
    }

    /** Seconds since the tier last read the cluster's capacity summary. */
    static double summaryAgeSeenByTier(Region region) {
        return tier.metricSum("inference_pool_per_pod_metrics_age_seconds",
                "model_server_pod=\"127.0.0.1:" + region.gatewayAddress().getPort() + "\"");
    }

    static double served(String target) {
        return tier.metricSum("inference_gateway_target_requests_total", "target=\"" + target + "\"");
    }

    static double spills() {
        return tier.metricSum("inference_gateway_global_spills_total");
    }

    static List<TestUpstream.Received> inferences(TestUpstream upstream) {
        return upstream.received().stream().filter(r -> r.method().equals("POST")).toList();
    }

    // ---- clients -----------------------------------------------------------------------------------------------

    static OpenAIClient client(String tenant) {
        return CLIENTS.computeIfAbsent(tenant, t -> OpenAIOkHttpClient.builder().baseUrl(tier.baseUrl() + "/v1")
                .apiKey(KEYS.get(t)).maxRetries(0).timeout(Duration.ofSeconds(60)).build());
    }

    static ChatCompletionCreateParams params(String priority, String requestId) {
        ChatCompletionCreateParams.Builder b = ChatCompletionCreateParams.builder().model(MODEL)
                .addUserMessage("ping").maxCompletionTokens(2L).putAdditionalHeader("x-request-id", requestId);
        if (priority != null) {
            b.putAdditionalHeader("x-gateway-priority", priority);
        }
        return b.build();
    }

    /** One chat completion of {@code tenant} at {@code priority} (null: the tenant's), and where the tier sent it. */
    static Outcome chat(String tenant, String priority, long t0) {
        String id = "gt-" + REQUEST_IDS.incrementAndGet();
        long start = System.nanoTime();
        int status;
        String model = null;
        OpenAIServiceException error = null;
        try {
            ChatCompletion c = client(tenant).chat().completions().create(params(priority, id));
            status = 200;
            model = c.model();
        } catch (OpenAIServiceException e) {
            status = e.statusCode();
            error = e;
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        Map<String, Object> line = tier.accessLine(id);
        Object attempts = line.get("attempts");
        return new Outcome(id, (start - t0) / 1_000_000, millis, status, (String) line.get("target"),
                attempts == null ? 0 : ((Number) attempts).intValue(), (String) line.get("pick_reason"), model, error);
    }

    static List<Outcome> send(String tenant, String priority, int n) {
        long t0 = System.nanoTime();
        List<Outcome> outcomes = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            outcomes.add(chat(tenant, priority, t0));
        }
        return outcomes;
    }

    /**
     * Standard requests one after another, ten a second at most, from now (the fault's moment) until the tier has
     * served {@value #SETTLED} in a row at the far cluster without trying the near one first, or 30 s have passed.
     */
    static List<Outcome> sendUntilDetected() throws InterruptedException {
        long t0 = System.nanoTime();
        List<Outcome> outcomes = new ArrayList<>();
        int inARow = 0;
        while (inARow < SETTLED && System.nanoTime() - t0 < Duration.ofSeconds(30).toNanos()) {
            long next = System.nanoTime() + 100_000_000L;
            Outcome o = chat("acme", null, t0);
            outcomes.add(o);
            inARow = o.servedAtFirstTry("far") ? inARow + 1 : 0;
            Thread.sleep(Math.max(0, (next - System.nanoTime()) / 1_000_000));
        }
        return outcomes;
    }

    /**
     * Prints how long the tier took to stop trying the failed cluster: from the fault until the first request it
     * served at the far cluster without trying the near one first; asserts that it did, {@value #SETTLED} in a row.
     */
    static void report(String fault, List<Outcome> outcomes) {
        long retried = outcomes.stream().filter(o -> o.attempts() > 1).count();
        long detected = outcomes.stream().filter(o -> o.servedAtFirstTry("far")).mapToLong(Outcome::offsetMillis)
                .findFirst().orElse(-1);
        System.out.printf("global tier suite: %s: %d requests, %d failed over (retried), detected after %d ms%n",
                fault, outcomes.size(), retried, detected);
        assertThat(outcomes.subList(Math.max(0, outcomes.size() - SETTLED), outcomes.size()))
                .as("after detection, served at the far cluster at the first try")
                .hasSize(SETTLED).allSatisfy(o -> assertThat(o.servedAtFirstTry("far")).as(o.toString()).isTrue());
    }

    static void assertOpenAiShaped(Outcome o) {
        assertThat(o.error()).as(o.toString()).isNotNull();
        assertThat(o.error().body().toString()).as("an OpenAI error object").contains("message");
        assertThat(o.error().getMessage()).doesNotContain("Exception").doesNotContain("\tat ");
    }

    static String sha256(String s) throws Exception {
        byte[] digest = MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        return HexFormat.of().formatHex(digest);
    }
}
