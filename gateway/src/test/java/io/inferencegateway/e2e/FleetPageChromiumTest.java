package io.inferencegateway.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.StreamSupport;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.inferencegateway.config.RolloutConfig;
import io.inferencegateway.config.RolloutConfig.RolloutState;
import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.ParsedBody;
import io.inferencegateway.domain.RequestRecord;
import io.inferencegateway.simulator.FleetOptions;
import io.inferencegateway.simulator.SimulatedFleet;
import io.inferencegateway.simulator.SimulatedPod;
import io.inferencegateway.runtime.Gateway;
import io.inferencegateway.testing.GatewayHarness;
import io.inferencegateway.testing.HeadlessChromium;
import io.inferencegateway.testing.TestUpstream;

/**
 * The live fleet page (GET /ui) in a real browser: the gateway over simulated pods serves known traffic, Debian's
 * headless Chromium loads the page, and what the page shows is compared, number by number, with the JSON the gateway
 * served it (read from the browser's own network log over the DevTools protocol, so that page and test look at the
 * very same snapshot); that JSON is checked against the traffic.
 */
class FleetPageChromiumTest {

    static final String MODEL = "meta-llama/Llama-3.1-8B-Instruct";
    static final HttpClient HTTP = HttpClient.newHttpClient();
    static final ObjectMapper JSON = new ObjectMapper();

    /** Reads the page in one go (the page's script cannot run in between): every data-field in its place. */
    static final String READ_PAGE = """
            (() => {
              const fields = (scope) => Object.fromEntries([...scope.querySelectorAll('[data-field]')]
                  .map(e => [e.dataset.field, {value: e.dataset.value, text: e.textContent.trim()}]));
              const main = document.getElementById('fleet');
              return JSON.stringify({
                generatedAt: main.dataset.generatedAt,
                pools: [...document.querySelectorAll('section.pool')].map(s => ({
                  name: s.dataset.pool,
                  head: fields(s.querySelector('.pool-head')),
                  stats: fields(s.querySelector('.stats')),
                  latency: fields(s.querySelector('.latency')),
                  pods: [...s.querySelectorAll('tr[data-pod]')].map(r => ({pod: r.dataset.pod, fields: fields(r)})),
                  decisions: [...s.querySelectorAll('tr[data-decision]')].map(r => fields(r))
                }))
              });
            })()""";

    /** Reads a global pool's rows: each cluster's and provider's fields, each decision's. */
    static final String READ_GLOBAL_POOL = """
            (() => {
              const fields = (scope) => Object.fromEntries([...scope.querySelectorAll('[data-field]')]
                  .map(e => [e.dataset.field, {value: e.dataset.value, text: e.textContent.trim()}]));
              const s = document.querySelector('section.pool');
              return JSON.stringify({
                generatedAt: document.getElementById('fleet').dataset.generatedAt,
                head: fields(s.querySelector('.pool-head')),
                stats: fields(s.querySelector('.stats')),
                targets: [...s.querySelectorAll('tr[data-target]')].map(r => ({target: r.dataset.target, fields: fields(r)})),
                decisions: [...s.querySelectorAll('tr[data-decision]')].map(r => fields(r))
              });
            })()""";

    SimulatedFleet fleet;
    GatewayHarness gateway;
    GatewayHarness tier;
    TestUpstream provider;
    HeadlessChromium chromium;
    final List<CompletableFuture<?>> background = new ArrayList<>();

    @AfterEach
    void stop() throws Exception {
        try {
            if (chromium != null) {
                chromium.close();
            }
        } finally {
            background.forEach(f -> f.cancel(true));
            if (tier != null) {
                tier.close();
            }
            if (provider != null) {
                provider.close();
            }
            if (gateway != null) {
                gateway.close();
            }
            if (fleet != null) {
                fleet.close();
            }
        }
    }

    void start() throws Exception {
        fleet = SimulatedFleet.start(FleetOptions.builder().model(MODEL).pods(3).loras(2).maxNumSeqs(2).timeScale(2)
                .build());
        gateway = GatewayHarness.start(GatewayHarness.fleetConfig(fleet, MODEL, "policy: gpu-aware",
                "metricsInterval: 100ms"));
        for (int i = 0; i < 3; i++) {
            Endpoint e = endpoint(fleet.pod(i));
            await().atMost(Duration.ofSeconds(15)).until(() -> gateway.server().gateway().metrics().latest(e) != null);
        }
    }

    @Test
    void thePageIsOneSelfContainedFileBesideItsJson() throws Exception {
        start();
        HttpResponse<String> page = get("/ui");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Type")).hasValue("text/html; charset=utf-8");
        String html = page.body();
        assertThat(html).contains("<style>", "<script>").doesNotContain("<link", "<script src", "@import");
        assertThat(html.replace("http://www.w3.org/2000/svg", "")).as("nothing fetched from elsewhere")
                .doesNotContain("http://", "https://");

        HttpResponse<String> data = get("/ui/fleet");
        assertThat(data.statusCode()).isEqualTo(200);
        assertThat(data.headers().firstValue("Content-Type")).hasValue("application/json");
        JsonNode pool = JSON.readTree(data.body()).get("pools").get(0);
        assertThat(pool.get("name").asText()).isEqualTo("llama");
        assertThat(pool.get("policy").asText()).isEqualTo("gpu-aware");
        assertThat(texts(pool.get("pods"), "pod")).containsExactlyElementsOf(fleet.endpoints());
    }

    @Test
    void theRenderedNumbersAreThoseOfTheJsonTheGatewayServed() throws Exception {
        start();
        String adapter = fleet.adapterNames().get(0);
        long[] before = received();
        for (int i = 0; i < 9; i++) {
            String model = i % 3 == 0 ? adapter : MODEL;
            HttpResponse<String> r = post(gateway.baseUrl(), chat(model, "question " + i, 3, i % 2 == 0));
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        }
        long[] served = delta(before);
        // a queue on pod 0 that outlives the page's reading: long requests sent to it directly
        SimulatedPod busy = fleet.pod(0);
        String queued = fleet.adapterNames().get(1);
        for (int i = 0; i < 6; i++) {
            background.add(HTTP.sendAsync(request(busy.baseUrl(), chat(queued, "keep busy " + i, 4000, false)),
                    HttpResponse.BodyHandlers.discarding()));
        }
        Endpoint busyEndpoint = endpoint(busy);
        await().atMost(Duration.ofSeconds(15)).until(() -> {
            var m = gateway.server().gateway().metrics().latest(busyEndpoint);
            return m != null && m.waiting() >= 3 && m.runningAdapters().contains(queued);
        });

        // the JSON tells the truth about the traffic
        JsonNode pool = JSON.readTree(get("/ui/fleet").body()).get("pools").get(0);
        assertThat(pool.get("fallback").asBoolean()).isFalse();
        assertThat(pool.get("freshPods").asInt()).isEqualTo(3);
        assertThat(pool.get("inFlight").asLong()).as("the direct requests bypass the gateway").isZero();
        JsonNode pods = pool.get("pods");
        for (int i = 0; i < 3; i++) {
            assertThat(pods.get(i).get("picksInWindow").asLong()).as("picks of %s", fleet.endpoints().get(i))
                    .isEqualTo(served[i]);
        }
        assertThat(StreamSupport.stream(pods.spliterator(), false).mapToInt(p -> p.get("ttftSamples").asInt()).sum())
                .isEqualTo(9);
        assertThat(pods.get(0).get("queue").asInt()).isGreaterThanOrEqualTo(3);
        assertThat(texts(pods.get(0).get("runningAdapters"), null)).contains(queued);
        JsonNode decisions = pool.get("decisions");
        assertThat(decisions).hasSize(9);
        assertThat(decisions.get(0).get("model").asText()).as("newest first: the ninth request").isEqualTo(MODEL);
        assertThat(decisions.get(8).get("model").asText()).isEqualTo(adapter);
        for (JsonNode d : decisions) {
            assertThat(d.get("status").asInt()).isEqualTo(200);
            assertThat(d.get("reason").asText()).isNotEmpty();
            assertThat(fleet.endpoints()).contains(d.get("pod").asText());
            assertThat(d.get("ttftMs").asDouble()).isPositive().isLessThanOrEqualTo(d.get("durationMs").asDouble());
        }

        // the page shows exactly what it was served
        chromium = HeadlessChromium.start();
        Map<String, JsonNode> servedToPage = recordFleetJsonServed(chromium);
        chromium.navigate(gateway.baseUrl() + "/ui");
        await().atMost(Duration.ofSeconds(30)).until(
                () -> chromium.evaluate("Number(document.getElementById('fleet')?.dataset.renders ?? 0)").asInt() >= 2);

        JsonNode page = JSON.readTree(chromium.evaluate(READ_PAGE).asText());
        String stamp = page.get("generatedAt").asText();
        await().atMost(Duration.ofSeconds(10)).until(() -> servedToPage.containsKey(stamp));
        JsonNode shown = servedToPage.get(stamp);
        assertThat(shown.get("pools").get(0).get("decisions")).as("the page's snapshot has the traffic").hasSize(9);
        assertMatches(page, shown);
    }

    /** The page's rollout rows: each row's fields, by rollout, and the baseline's row below it. */
    static final String READ_ROLLOUTS = """
            (() => {
              const fields = (scope) => Object.fromEntries([...scope.querySelectorAll('[data-field]')]
                  .map(e => [e.dataset.field, {value: e.dataset.value, text: e.textContent}]));
              return JSON.stringify([...document.querySelectorAll('tr[data-rollout]')].map(r => ({
                rollout: r.dataset.rollout, candidate: fields(r), baseline: fields(r.nextElementSibling)})));
            })()""";

    @Test
    void aRolledBackRolloutShowsItsStateShareAndBothSidesNumbers() throws Exception {
        start();
        Gateway g = gateway.server().gateway();
        String candidate = fleet.adapterNames().get(0);
        // the rewrite's first request makes its rollout join (docs/rollouts.md, "Automatic canary"); its requests'
        // records then count
        RolloutConfig rollout = new RolloutConfig("chat", MODEL, candidate, RolloutState.RUNNING,
                List.of(new RolloutConfig.Step(10, Duration.ofMinutes(1)), new RolloutConfig.Step(100, Duration.ZERO)),
                new RolloutConfig.Analysis(20, Duration.ofMillis(50), 0.01, 0.01, 1.5, 1.5), null);
        assertThat(g.rolloutWeights().candidatePercent(rollout)).isEqualTo(10);
        for (int i = 0; i < 20; i++) {
            g.requestListeners().ended(servedRecord(MODEL, 100));
            g.requestListeners().ended(servedRecord(candidate, 300));
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> g.rolloutWeights().candidatePercent(rollout) == 0);
        JsonNode json = JSON.readTree(get("/ui/fleet").body()).get("rollouts").get(0);
        assertThat(json.get("state").asText()).isEqualTo("rolled_back");
        assertThat(json.get("reason").asText()).startsWith("TTFT p90");

        chromium = HeadlessChromium.start();
        chromium.navigate(gateway.baseUrl() + "/ui");
        await().atMost(Duration.ofSeconds(30)).until(
                () -> chromium.evaluate("Number(document.getElementById('fleet')?.dataset.renders ?? 0)").asInt() >= 1);
        JsonNode rows = JSON.readTree(chromium.evaluate(READ_ROLLOUTS).asText());
        assertThat(rows).hasSize(1);
        JsonNode row = rows.get(0);
        assertThat(row.get("rollout").asText()).isEqualTo("chat");
        assertThat(row.get("candidate").get("state").get("text").asText()).isEqualTo("rolled back");
        assertThat(row.get("candidate").get("percent").get("text").asText()).isEqualTo("0 %");
        assertThat(row.get("candidate").get("step").get("text").asText()).isEqualTo("1 / 2");
        assertThat(row.get("candidate").get("requests").get("value").asText()).isEqualTo("20");
        assertThat(row.get("baseline").get("requests").get("value").asText()).isEqualTo("20");
        assertThat(row.get("candidate").get("ttftP90Ms").get("value").asDouble())
                .isEqualTo(json.get("candidate").get("ttftP90Ms").asDouble());
        assertThat(row.get("candidate").get("reason").get("text").asText()).startsWith("last: TTFT p90");
    }

    /** A streamed request {@code version} served with its first token after {@code ttftMillis}. */
    static RequestRecord servedRecord(String version, long ttftMillis) {
        RequestRecord r = new RequestRecord(0, 0, "POST", "/v1/chat/completions", "chat", null, null);
        r.parsed(ParsedBody.builder("chat").promptText("hi").promptTokensEstimate(1).stream(true).build(), 0);
        r.version("chat", version);
        r.answered(200, 1_000_000);
        r.firstToken(ttftMillis * 1_000_000);
        r.usage(10, 5, 0);
        r.end(RequestRecord.Ending.COMPLETED, (ttftMillis + 50) * 1_000_000);
        return r;
    }

    @Test
    void thePredictedVersusMeasuredPanelShowsThePredictorsAccuracyAndTheTargetsAttainment() throws Exception {
        start();
        // generous targets: each request is judged (and met); the predictor learns from every stream, predicts
        // from its 20th on, and the streams after that are predicted and measured
        int requests = 30;
        for (int i = 0; i < requests; i++) {
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/v1/chat/completions"))
                    .header("Content-Type", "application/json").header("x-slo-ttft-ms", "60000")
                    .header("x-slo-tpot-ms", "60000")
                    .POST(HttpRequest.BodyPublishers.ofString(chat(MODEL, "targeted " + i, 3, true))).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        }
        JsonNode pool = JSON.readTree(get("/ui/fleet").body()).get("pools").get(0);
        JsonNode predictor = pool.get("predictor");
        assertThat(predictor.get("samples").asLong()).isEqualTo(requests);
        assertThat(predictor.get("ready").asBoolean()).isTrue();
        assertThat(predictor.get("ttftMape").isNumber()).as("predictions compared with measurements: %s", predictor)
                .isTrue();
        assertThat(predictor.get("ttftBias").isNumber()).isTrue();
        JsonNode standard = pool.get("attainment").get(1);
        assertThat(standard.get("priority").asText()).isEqualTo("standard");
        assertThat(standard.get("attained").asLong()).isEqualTo(requests);
        assertThat(standard.get("ratio").asDouble()).isEqualTo(1.0);
        assertThat(pool.get("decisions").get(0).get("slo").asText()).isEqualTo("met");

        chromium = HeadlessChromium.start();
        chromium.navigate(gateway.baseUrl() + "/ui");
        await().atMost(Duration.ofSeconds(30)).until(
                () -> chromium.evaluate("Number(document.getElementById('fleet')?.dataset.renders ?? 0)").asInt() >= 1);
        JsonNode page = JSON.readTree(chromium.evaluate(READ_PAGE).asText());
        // nothing moves the predictor or the attainment between the two reads: no traffic, and the window is a minute
        JsonNode shown = page.get("pools").get(0).get("latency");
        for (String f : List.of("samples", "ready", "ttftMape", "ttftBias", "tpotMape", "tpotBias",
                "concordance")) {
            assertField("predictor", f, predictor.get(f), shown.get(f));
        }
        assertThat(shown.get("ttftMape").get("text").asText()).as("a number, shown as a percentage").endsWith("%");
        for (JsonNode band : pool.get("attainment")) {
            String priority = band.get("priority").asText();
            for (String f : List.of("attained", "missed", "ratio")) {
                assertField("attainment", f + "-" + priority, band.get(f), shown.get(f + "-" + priority));
            }
        }
        assertThat(shown.get("ratio-standard").get("text").asText()).isEqualTo("100.0%");
    }

    @Test
    void aGlobalTiersPageShowsEachClusterAndProviderWithItsRegionPriceAndCapacityAndEachDecisionsTarget()
            throws Exception {
        start(); // the cluster: a gateway over three simulated pods
        provider = new TestUpstream().behave(TestUpstream.chatCompletion("vendor-8b", 1000, 500));
        // round-robin, so that both get known picks; how the tier chooses is the plugins' tests' business
        tier = GatewayHarness.start("""
                kind: InferenceGatewayConfig
                spec:
                  global:
                    region: home
                    summaryInterval: 100ms
                    clusters:
                      - {name: east, url: "http://127.0.0.1:%d", region: home, price: {input: 0.5, output: 2.0}}
                    providers:
                      - {name: vendor, baseUrl: "http://%s/v1", region: away, models: {"%s": vendor-8b},
                         price: {input: 1.0, output: 4.0}}
                  schedulers:
                    - {name: global, modelName: "%s", policy: round-robin,
                       outlierDetection: {consecutiveFailures: 0, failurePercent: 0}}
                """.formatted(gateway.port(), provider.address(), MODEL, MODEL));
        Endpoint east = new Endpoint("127.0.0.1", gateway.port());
        await().atMost(Duration.ofSeconds(15)).until(() -> {
            var m = tier.server().gateway().metrics().latest(east);
            return m != null && m.cluster() != null && m.cluster().readyPods() == 3;
        });
        for (int i = 0; i < 6; i++) {
            HttpResponse<String> r = post(tier.baseUrl(), chat(MODEL, "global " + i, 3, false));
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        }
        // the cluster's summary counts its answers of the last seconds, which the tier reads at its next poll
        await().atMost(Duration.ofSeconds(10)).until(() -> globalPool().get("pods").get(0).get("target")
                .path("recentRequests").asInt() >= 3);

        JsonNode pool = globalPool();
        assertThat(pool.get("homeRegion").asText()).isEqualTo("home");
        assertThat(pool.get("freshPods").asInt()).as("the cluster's summary is fresh").isEqualTo(1);
        JsonNode cluster = pool.get("pods").get(0);
        JsonNode c = cluster.get("target");
        assertThat(c.get("name").asText()).isEqualTo("east");
        assertThat(c.get("kind").asText()).isEqualTo("cluster");
        assertThat(c.get("home").asBoolean()).isTrue();
        assertThat(c.get("inputPricePerMillion").asDouble()).isEqualTo(0.5);
        assertThat(c.get("readyPods").asInt()).isEqualTo(3);
        assertThat(c.get("roundTripMs").asDouble()).as("measured by the tier's polls").isPositive();
        assertThat(c.get("kvHeadroom").asDouble()).isBetween(0.0, 1.0);
        assertThat(c.get("errorRatio").asDouble()).isZero();
        assertThat(c.get("ttftMs").asDouble()).isPositive();
        assertThat(cluster.get("stale").asBoolean()).isFalse();
        assertThat(cluster.get("picksInWindow").asLong()).isEqualTo(3);
        JsonNode vendor = pool.get("pods").get(1);
        assertThat(vendor.get("target").get("kind").asText()).isEqualTo("provider");
        assertThat(vendor.get("target").get("region").asText()).isEqualTo("away");
        assertThat(vendor.get("target").get("home").asBoolean()).isFalse();
        assertThat(vendor.get("target").get("readyPods").isNull()).as("a provider is never polled").isTrue();
        assertThat(vendor.get("stale").asBoolean()).isFalse();
        assertThat(vendor.get("picksInWindow").asLong()).isEqualTo(3);
        JsonNode decisions = pool.get("decisions");
        assertThat(decisions).hasSize(6);
        for (JsonNode d : decisions) {
            assertThat(d.get("target").asText()).isIn("east", "vendor");
            if (d.get("target").asText().equals("vendor")) {
                assertThat(d.get("cost").asDouble()).as("1000 x 1.0 + 500 x 4.0 per million").isEqualTo(0.003);
            }
        }

        chromium = HeadlessChromium.start();
        Map<String, JsonNode> servedToPage = recordFleetJsonServed(chromium);
        chromium.navigate(tier.baseUrl() + "/ui");
        await().atMost(Duration.ofSeconds(30)).until(
                () -> chromium.evaluate("Number(document.getElementById('fleet')?.dataset.renders ?? 0)").asInt() >= 2);
        JsonNode page = JSON.readTree(chromium.evaluate(READ_GLOBAL_POOL).asText());
        String stamp = page.get("generatedAt").asText();
        await().atMost(Duration.ofSeconds(10)).until(() -> servedToPage.containsKey(stamp));
        JsonNode shown = servedToPage.get(stamp).get("pools").get(0);

        assertField("head", "homeRegion", shown.get("homeRegion"), page.get("head").get("homeRegion"));
        assertField("stats", "freshPods", shown.get("freshPods"), page.get("stats").get("freshPods"));
        JsonNode rows = page.get("targets");
        assertThat(rows).hasSize(2);
        for (int i = 0; i < 2; i++) {
            JsonNode pod = shown.get("pods").get(i);
            JsonNode target = pod.get("target");
            JsonNode row = rows.get(i).get("fields");
            String where = "target " + target.get("name").asText();
            assertThat(rows.get(i).get("target").asText()).isEqualTo(target.get("name").asText());
            for (String f : TARGET_FIELDS) {
                assertField(where, f, target.get(f), row.get(f));
            }
            for (String f : TARGET_ENDPOINT_FIELDS) {
                assertField(where, f, pod.get(f), row.get(f));
            }
            assertField(where, "target", target.get("name"), row.get("target"));
            assertThat(row.get("target").get("text").asText()).isEqualTo(target.get("name").asText());
            assertThat(row.get("kind").get("text").asText()).isEqualTo(target.get("kind").asText());
            assertThat(row.get("region").get("text").asText()).isEqualTo(target.get("region").asText());
        }
        JsonNode eastRow = rows.get(0).get("fields");
        assertThat(eastRow.get("home").get("text").asText()).as("the home region is marked").isEqualTo("home");
        assertThat(eastRow.get("inputPricePerMillion").get("text").asText()).isEqualTo("0.50");
        assertThat(eastRow.get("outputPricePerMillion").get("text").asText()).isEqualTo("2.00");
        assertThat(eastRow.get("readyPods").get("text").asText()).isEqualTo("3");
        assertThat(eastRow.get("roundTripMs").get("text").asText()).endsWith("ms");
        assertThat(eastRow.get("kvHeadroom").get("text").asText()).endsWith("%");
        assertThat(eastRow.get("stale").get("text").asText()).isEqualTo("fresh");
        JsonNode vendorRow = rows.get(1).get("fields");
        assertThat(vendorRow.get("home").get("text").asText()).isEmpty();
        assertThat(vendorRow.get("metricsAgeMs").get("text").asText()).isEqualTo("not polled");
        assertThat(vendorRow.get("readyPods").get("text").asText()).isEqualTo("—");
        JsonNode shownDecisions = page.get("decisions");
        assertThat(shownDecisions).hasSize(shown.get("decisions").size());
        for (int i = 0; i < shownDecisions.size(); i++) {
            JsonNode d = shown.get("decisions").get(i);
            for (String f : GLOBAL_DECISION_FIELDS) {
                assertField("decision " + i, f, d.get(f), shownDecisions.get(i).get(f));
            }
            assertThat(shownDecisions.get(i).get("target").get("text").asText()).isEqualTo(d.get("target").asText());
        }
    }

    JsonNode globalPool() throws Exception {
        return JSON.readTree(HTTP.send(HttpRequest.newBuilder(URI.create(tier.baseUrl() + "/ui/fleet")).build(),
                HttpResponse.BodyHandlers.ofString()).body()).get("pools").get(0);
    }

    // ---- the comparison -----------------------------------------------------------------------------

    static final List<String> POOL_FIELDS = List.of("freshPods", "inFlight", "picksPerSecond", "ttftP50Ms", "ttftP99Ms");
    static final List<String> POD_FIELDS = List.of("pod", "queue", "running", "kvUsage", "runningAdapters",
            "waitingAdapters", "inFlight", "picksPerSecond", "picksInWindow", "ttftP50Ms", "ttftP99Ms", "metricsAgeMs",
            "stale");
    static final List<String> DECISION_FIELDS = List.of("timeMillis", "model", "pod", "reason", "status", "stream",
            "ttftMs", "durationMs", "slo");
    /** A global pool's row: the cluster's or provider's own fields, and the endpoint's the pod rows show too. */
    static final List<String> TARGET_FIELDS = List.of("kind", "region", "home", "inputPricePerMillion",
            "outputPricePerMillion", "roundTripMs", "readyPods", "pods", "gatewayQueue", "kvHeadroom", "errorRatio",
            "saturation", "ttftMs", "predictedTtftMs");
    static final List<String> TARGET_ENDPOINT_FIELDS = List.of("pod", "queue", "inFlight", "picksPerSecond",
            "picksInWindow", "metricsAgeMs");
    static final List<String> GLOBAL_DECISION_FIELDS = List.of("timeMillis", "model", "target", "reason", "status",
            "stream", "ttftMs", "durationMs", "slo", "cost");
    /** Fields shown as they are, without units or rounding: their text must be the value itself. */
    static final Set<String> PLAIN = Set.of("pod", "queue", "running", "inFlight", "picksInWindow", "freshPods",
            "model", "status", "samples", "attained-critical", "missed-critical", "attained-standard", "missed-standard",
            "attained-sheddable", "missed-sheddable");

    static void assertMatches(JsonNode page, JsonNode json) {
        JsonNode pools = json.get("pools");
        assertThat(page.get("pools")).hasSize(pools.size());
        for (int p = 0; p < pools.size(); p++) {
            JsonNode pool = pools.get(p);
            JsonNode shown = page.get("pools").get(p);
            String where = "pool " + pool.get("name").asText();
            assertThat(shown.get("name").asText()).isEqualTo(pool.get("name").asText());
            assertField(where, "fallback", pool.get("fallback"), shown.get("head").get("fallback"));
            for (String f : POOL_FIELDS) {
                assertField(where, f, pool.get(f), shown.get("stats").get(f));
            }
            JsonNode pods = pool.get("pods");
            assertThat(shown.get("pods")).as(where + " pods").hasSize(pods.size());
            for (int i = 0; i < pods.size(); i++) {
                JsonNode pod = pods.get(i);
                JsonNode row = shown.get("pods").get(i);
                assertThat(row.get("pod").asText()).isEqualTo(pod.get("pod").asText());
                for (String f : POD_FIELDS) {
                    assertField(where + " pod " + pod.get("pod").asText(), f, pod.get(f), row.get("fields").get(f));
                }
                assertThat(row.get("fields").get("stale").get("text").asText())
                        .isEqualTo(pod.get("stale").asBoolean() ? "stale" : "fresh");
            }
            JsonNode decisions = pool.get("decisions");
            assertThat(shown.get("decisions")).as(where + " decisions").hasSize(decisions.size());
            for (int i = 0; i < decisions.size(); i++) {
                for (String f : DECISION_FIELDS) {
                    assertField(where + " decision " + i, f, decisions.get(i).get(f), shown.get("decisions").get(i).get(f));
                }
            }
        }
    }

    /** The element's data-value is the JSON value (numbers compared as numbers); a plain field's text is it too. */
    static void assertField(String where, String name, JsonNode expected, JsonNode shown) {
        assertThat(shown).as("%s: no element with data-field=%s", where, name).isNotNull();
        String value = shown.get("value").asText();
        String text = shown.get("text").asText();
        if (expected == null || expected.isNull()) {
            assertThat(value).as("%s %s", where, name).isEmpty();
            if (PLAIN.contains(name)) {
                assertThat(text).as("%s %s shown", where, name).isEqualTo("—");
            }
        } else if (expected.isNumber()) {
            assertThat(Double.parseDouble(value)).as("%s %s", where, name).isEqualTo(expected.asDouble());
            if (PLAIN.contains(name)) {
                assertThat(text).as("%s %s shown", where, name).isEqualTo(expected.asText());
            }
        } else if (expected.isArray()) {
            assertThat(value).as("%s %s", where, name).isEqualTo(String.join(",", texts(expected, null)));
            for (JsonNode item : expected) {
                assertThat(text).as("%s %s shown", where, name).contains(item.asText());
            }
        } else {
            assertThat(value).as("%s %s", where, name).isEqualTo(expected.asText());
            if (PLAIN.contains(name)) {
                assertThat(text).as("%s %s shown", where, name).isEqualTo(expected.asText());
            }
        }
    }

    // ---- helpers ------------------------------------------------------------------------------------

    /**
     * Keeps every {@code /ui/fleet} response the browser gets, by its {@code generatedAtMillis}, from its own network
     * log (DevTools protocol), so that a test compares the page with the very snapshot it rendered.
     */
    static Map<String, JsonNode> recordFleetJsonServed(HeadlessChromium chromium) throws Exception {
        Map<String, Boolean> fleetRequests = new ConcurrentHashMap<>();
        Map<String, JsonNode> servedToPage = new ConcurrentHashMap<>();
        chromium.onEvent(event -> {
            JsonNode params = event.path("params");
            String id = params.path("requestId").asText();
            switch (event.path("method").asText()) {
                case "Network.responseReceived" -> {
                    if (params.path("response").path("url").asText().endsWith("/ui/fleet")) {
                        fleetRequests.put(id, true);
                    }
                }
                case "Network.loadingFinished" -> {
                    if (fleetRequests.remove(id) != null) {
                        chromium.callAsync("Network.getResponseBody", Map.of("requestId", id)).thenAccept(body -> {
                            try {
                                JsonNode json = JSON.readTree(body.get("body").asText());
                                servedToPage.put(json.get("generatedAtMillis").asText(), json);
                            } catch (Exception e) {
                                throw new IllegalStateException(e);
                            }
                        });
                    }
                }
                default -> {
                }
            }
        });
        chromium.call("Network.enable", Map.of());
        return servedToPage;
    }

    static List<String> texts(JsonNode array, String field) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(field == null ? n.asText() : n.get(field).asText()));
        return out;
    }

    HttpResponse<String> get(String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    static HttpResponse<String> post(String base, String body) throws Exception {
        return HTTP.send(request(base, body), HttpResponse.BodyHandlers.ofString());
    }

    static HttpRequest request(String base, String body) {
        return HttpRequest.newBuilder(URI.create(base + "/v1/chat/completions"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build();
    }

    static String chat(String model, String text, int maxTokens, boolean stream) {
        return "{\"model\":\"" + model + "\",\"max_tokens\":" + maxTokens + ",\"stream\":" + stream
                + ",\"messages\":[{\"role\":\"user\",\"content\":\"" + text + "\"}]}";
    }

    static Endpoint endpoint(SimulatedPod pod) {
        return new Endpoint(pod.host(), pod.port());
    }

    long[] received() {
        long[] r = new long[fleet.ports().size()];
        for (int i = 0; i < r.length; i++) {
            r[i] = fleet.pod(i).requestsReceived();
        }
        return r;
    }

    long[] delta(long[] before) {
        long[] now = received();
        for (int i = 0; i < now.length; i++) {
            now[i] -= before[i];
        }
        return now;
    }
}
