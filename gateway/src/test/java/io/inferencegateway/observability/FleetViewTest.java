package io.inferencegateway.observability;

import static io.inferencegateway.domain.SchedulingPolicy.decideNow;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.inferencegateway.config.ConfigLoader;
import io.inferencegateway.runtime.Gateway;
import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.GatewayError;
import io.inferencegateway.domain.InFlightRequests;
import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.domain.LatencyTargets;
import io.inferencegateway.domain.ParsedBody;
import io.inferencegateway.domain.PickDecision;
import io.inferencegateway.domain.PickReason;
import io.inferencegateway.domain.RequestRecord;
import io.inferencegateway.metrics.ClusterCapacity;
import io.inferencegateway.metrics.EndpointMetrics;

/** The fleet page's data from hand-made request records, on a clock the test moves. */
class FleetViewTest {

    static final String MODEL = "meta-llama/Llama-3.1-8B-Instruct";
    static final Endpoint A = Endpoint.parse("10.0.0.1:8000");
    static final Endpoint B = Endpoint.parse("10.0.0.2:8000");
    static final long SECOND = 1_000_000_000L;
    static final long MS = 1_000_000L;

    final AtomicLong now = new AtomicLong(1_000 * SECOND);
    Gateway gateway;
    FleetView fleet;

    @BeforeEach
    void start() throws Exception {
        gateway = new Gateway(ConfigLoader.parse("""
                kind: InferenceGatewayConfig
                spec:
                  schedulers:
                    - name: llama
                      modelName: %s
                      loraAdapters: [sql, chat]
                      metricsStalenessThreshold: 500ms
                      endpoints: ["10.0.0.1:8000", "10.0.0.2:8000"]
                    - name: small
                      modelName: small-model
                      policy: round-robin
                      endpoints: ["10.0.0.3:8000"]
                """.formatted(MODEL)), now::get);
        fleet = new FleetView(new LiveState(gateway::pools, gateway.metrics(), gateway.inFlight(), now::get),
                () -> 1_700_000_000_000L);
    }

    @Test
    void picksPerSecondAverageTheLastTenCompletedSecondsAndTheHistoryCoversAMinute() {
        for (int s = 0; s < 10; s++) {
            for (int i = 0; i < 3; i++) {
                serve(A, PickReason.LEAST_LOADED, 20);
            }
            now.addAndGet(SECOND);
        }
        serve(A, PickReason.LEAST_LOADED, 20); // the running second: in the window, not yet in the rate

        FleetSnapshot.PodView a = pod("llama", A);
        assertThat(a.picksPerSecond()).isEqualTo(3.0);
        assertThat(a.picksInWindow()).isEqualTo(31);
        assertThat(a.picksHistory()).hasSize(60).endsWith(3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 1);
        assertThat(pod("llama", B).picksPerSecond()).isZero();
        assertThat(pool("llama").picksPerSecond()).isEqualTo(3.0);
        assertThat(pool("llama").picksInWindow()).isEqualTo(31);

        now.addAndGet(55 * SECOND);
        assertThat(pod("llama", A).picksPerSecond()).isZero();
        assertThat(pod("llama", A).picksInWindow()).as("the picks of the last four full seconds and the one after")
                .isEqualTo(4 * 3 + 1);
        now.addAndGet(10 * SECOND);
        assertThat(pod("llama", A).picksInWindow()).isZero();
    }

    @Test
    void ttftPercentilesAreThoseOfTheWindowsAnswersPerPodAndPerPool() {
        for (int ms = 1; ms <= 100; ms++) {
            serve(A, PickReason.PREFIX_HIT, ms);
        }
        serve(B, PickReason.LEAST_LOADED, 1000);

        FleetSnapshot.PodView a = pod("llama", A);
        assertThat(a.ttftP50Ms()).isEqualTo(50.0);
        assertThat(a.ttftP99Ms()).isEqualTo(99.0);
        assertThat(a.ttftSamples()).isEqualTo(100);
        assertThat(pod("llama", B).ttftP50Ms()).isEqualTo(1000.0);
        assertThat(pool("llama").ttftP50Ms()).isEqualTo(51.0);
        assertThat(pool("llama").ttftP99Ms()).isEqualTo(100.0);

        now.addAndGet(61 * SECOND);
        assertThat(pod("llama", A).ttftP50Ms()).isNull();
        assertThat(pod("llama", A).ttftSamples()).isZero();
    }

    @Test
    void onlyTheLastFiveHundredAndTwelveAnswersCount() {
        for (int i = 0; i < 600; i++) {
            serve(A, PickReason.LEAST_LOADED, i < 88 ? 1000 : 10);
        }
        assertThat(pod("llama", A).ttftSamples()).isEqualTo(512);
        assertThat(pod("llama", A).ttftP99Ms()).isEqualTo(10.0);
    }

    @Test
    void decisionsAreTheLastFiftyNewestFirstWithWhatEndedThem() {
        for (int i = 0; i < 60; i++) {
            serve(i % 2 == 0 ? A : B, i % 2 == 0 ? PickReason.PREFIX_HIT : PickReason.LORA_RESIDENT, i);
        }
        RequestRecord refused = record("sql");
        now.addAndGet(3 * MS);
        refused.failed(GatewayError.Reason.NO_ENDPOINT, 503);
        refused.end(RequestRecord.Ending.REFUSED, now.get());
        fleet.ended(refused);

        List<FleetSnapshot.Decision> decisions = pool("llama").decisions();
        assertThat(decisions).hasSize(50);
        FleetSnapshot.Decision first = decisions.get(0);
        assertThat(first.pod()).isNull();
        assertThat(first.reason()).isNull();
        assertThat(first.status()).isEqualTo(503);
        assertThat(first.error()).isEqualTo("no_endpoint");
        assertThat(first.ending()).isEqualTo("refused");
        assertThat(first.ttftMs()).isNull();
        assertThat(first.durationMs()).isEqualTo(3.0);
        assertThat(first.model()).isEqualTo("sql");
        assertThat(first.inputTokens()).isNull();

        FleetSnapshot.Decision last = decisions.get(1); // the 60th served, TTFT 59 ms, on B
        assertThat(last.pod()).isEqualTo("10.0.0.2:8000");
        assertThat(last.reason()).isEqualTo("lora_resident");
        assertThat(last.ttftMs()).isEqualTo(59.0);
        assertThat(last.status()).isEqualTo(200);
        assertThat(last.ending()).isEqualTo("completed");
        assertThat(last.stream()).isTrue();
        assertThat(last.attempts()).isEqualTo(1);
        assertThat(last.expectedCachedTokens()).isEqualTo(64);
        assertThat(last.inputTokens()).isEqualTo(120);
        assertThat(last.outputTokens()).isEqualTo(7);
        assertThat(last.cachedTokens()).isEqualTo(48);
        assertThat(decisions.get(49).ttftMs()).as("the refusal and the last 49 served: TTFT 59 down to 11 ms")
                .isEqualTo(11.0);
        assertThat(pool("small").decisions()).isEmpty();
    }

    @Test
    void aFailedAnswerIsADecisionButNoTtftSample() {
        RequestRecord r = record(MODEL);
        pick(r, A, PickReason.LEAST_LOADED);
        now.addAndGet(5 * MS);
        r.answered(500, now.get());
        r.firstToken(now.get());
        r.end(RequestRecord.Ending.COMPLETED, now.get());
        fleet.ended(r);

        assertThat(pod("llama", A).ttftSamples()).isZero();
        assertThat(pod("llama", A).picksInWindow()).isEqualTo(1);
        assertThat(pool("llama").decisions().get(0).status()).isEqualTo(500);
        assertThat(pool("llama").decisions().get(0).error()).isEqualTo("upstream_5xx");
        assertThat(pool("llama").decisions().get(0).ttftMs()).isNull();
    }

    @Test
    void aPlainResponsesTtftIsItsWholeTimeAndABrokenStreamHasNone() {
        RequestRecord plain = new RequestRecord(now.get(), 1_700_000_000_000L, "POST", "/v1/completions", "text_completion", null, null);
        plain.parsed(ParsedBody.builder(MODEL).promptText("hello").promptTokensEstimate(2).build(), now.get());
        plain.routedTo("llama", MODEL);
        pick(plain, A, PickReason.LEAST_LOADED);
        plain.answered(200, now.get() + 30 * MS);
        plain.end(RequestRecord.Ending.COMPLETED, now.get() + 40 * MS);
        fleet.ended(plain);

        RequestRecord broken = record(MODEL);
        pick(broken, B, PickReason.LEAST_LOADED);
        broken.answered(200, now.get() + MS);
        broken.firstToken(now.get() + 2 * MS);
        broken.end(RequestRecord.Ending.UPSTREAM_FAILED, now.get() + 9 * MS);
        fleet.ended(broken);

        assertThat(pod("llama", A).ttftP50Ms()).isEqualTo(40.0);
        assertThat(pod("llama", B).ttftSamples()).isZero();
        assertThat(pool("llama").decisions().get(0).error()).isEqualTo("upstream_broken");
        assertThat(pool("llama").decisions().get(0).ttftMs()).isNull();
        assertThat(pool("llama").decisions().get(1).ttftMs()).isEqualTo(40.0);
    }

    @Test
    void aFailoverCountsAPickOnEachPodTried() {
        RequestRecord r = record(MODEL);
        pick(r, A, PickReason.LEAST_LOADED);
        pick(r, B, PickReason.FAILOVER);
        now.addAndGet(7 * MS);
        r.answered(200, now.get());
        r.firstToken(now.get());
        r.end(RequestRecord.Ending.COMPLETED, now.get());
        fleet.ended(r);

        assertThat(pod("llama", A).picksInWindow()).isEqualTo(1);
        assertThat(pod("llama", B).picksInWindow()).isEqualTo(1);
        assertThat(pod("llama", A).ttftSamples()).isZero();
        assertThat(pod("llama", B).ttftP50Ms()).isEqualTo(7.0);
        FleetSnapshot.Decision d = pool("llama").decisions().get(0);
        assertThat(d.pod()).isEqualTo("10.0.0.2:8000");
        assertThat(d.reason()).isEqualTo("failover");
        assertThat(d.attempts()).isEqualTo(2);
    }

    @Test
    void scrapedStateStalenessAndInFlightComeFromTheGatewaysLiveState() {
        gateway.metrics().recordSuccess(A, new EndpointMetrics(4, 2, 0.375, Set.of("sql", "chat"), Set.of("sql"), 4,
                16, 1000, Double.NaN, Double.NaN, now.get() - 120 * MS, InFlightRequests.Counters.ZERO, null), now.get());
        gateway.metrics().recordFailure(A, "connection refused");
        gateway.inFlight().started(A, 100);
        gateway.inFlight().started(A, 100);
        gateway.inFlight().started(B, 100);

        FleetSnapshot.PodView a = pod("llama", A);
        assertThat(a.queue()).isEqualTo(4);
        assertThat(a.running()).isEqualTo(2);
        assertThat(a.kvUsage()).isEqualTo(0.375);
        assertThat(a.runningAdapters()).containsExactly("chat", "sql");
        assertThat(a.waitingAdapters()).containsExactly("sql");
        assertThat(a.metricsAgeMs()).isEqualTo(120);
        assertThat(a.stale()).isFalse();
        assertThat(a.scrapeFailures()).isEqualTo(1);
        assertThat(a.lastError()).isEqualTo("connection refused");
        assertThat(a.inFlight()).isEqualTo(2);

        FleetSnapshot.PodView b = pod("llama", B);
        assertThat(b.queue()).isNull();
        assertThat(b.kvUsage()).isNull();
        assertThat(b.metricsAgeMs()).isNull();
        assertThat(b.stale()).as("never scraped").isTrue();
        assertThat(b.inFlight()).isEqualTo(1);

        FleetSnapshot.PoolView llama = pool("llama");
        assertThat(llama.freshPods()).isEqualTo(1);
        assertThat(llama.inFlight()).isEqualTo(3);
        assertThat(llama.staleAfterMs()).isEqualTo(500);
        assertThat(llama.adapters()).containsExactly("sql", "chat");

        now.addAndGet(400 * MS);
        assertThat(pod("llama", A).stale()).as("520 ms old, the limit is 500 ms").isTrue();
        assertThat(pod("llama", A).metricsAgeMs()).isEqualTo(520);
    }

    @Test
    void fallbackIsThePluginPolicysStateAndNullForALoadBlindOne() {
        assertThat(pool("llama").policy()).isEqualTo("gpu-aware");
        assertThat(pool("llama").fallback()).isFalse();
        decideNow(gateway.pools().pool("llama").policy(),
                InferenceRequest.builder(MODEL).promptText("hi").promptTokensEstimate(1).build(), List.of(A, B))
                .endpoint();
        assertThat(pool("llama").fallback()).as("no pod was ever scraped").isTrue();
        assertThat(pool("small").policy()).isEqualTo("round-robin");
        assertThat(pool("small").fallback()).isNull();
    }

    @Test
    void poolsAndPodsThatLeaveAreForgotten() throws Exception {
        serve(A, PickReason.LEAST_LOADED, 5);
        RequestRecord elsewhere = record("unknown-model");
        elsewhere.failed(GatewayError.Reason.MODEL_NOT_FOUND, 404);
        elsewhere.end(RequestRecord.Ending.REFUSED, now.get());
        fleet.ended(elsewhere); // no pool: not the fleet's

        gateway.reload(ConfigLoader.parse("""
                kind: InferenceGatewayConfig
                spec:
                  schedulers:
                    - name: llama
                      modelName: %s
                      loraAdapters: [sql, chat]
                      metricsStalenessThreshold: 500ms
                      endpoints: ["10.0.0.2:8000"]
                """.formatted(MODEL)));
        FleetSnapshot snapshot = fleet.snapshot();
        assertThat(snapshot.pools()).extracting(FleetSnapshot.PoolView::name).containsExactly("llama");
        assertThat(snapshot.pools().get(0).pods()).extracting(FleetSnapshot.PodView::pod).containsExactly("10.0.0.2:8000");
        assertThat(snapshot.pools().get(0).decisions()).as("the pool was rebuilt, its history kept").hasSize(1);
    }

    @Test
    void theJsonHasTheSnapshotsFieldsWithNullForTheUnknown() throws Exception {
        serve(A, PickReason.PREFIX_HIT, 12);
        JsonNode json = new ObjectMapper().readTree(fleet.json());
        assertThat(json.get("generatedAtMillis").asLong()).isEqualTo(1_700_000_000_000L);
        assertThat(json.get("windowSeconds").asInt()).isEqualTo(60);
        assertThat(json.get("rateSeconds").asInt()).isEqualTo(10);
        JsonNode llama = json.get("pools").get(0);
        assertThat(llama.get("name").asText()).isEqualTo("llama");
        JsonNode a = llama.get("pods").get(0);
        assertThat(a.get("pod").asText()).isEqualTo("10.0.0.1:8000");
        assertThat(a.get("kvUsage").isNull()).isTrue();
        assertThat(a.get("ttftP50Ms").asDouble()).isEqualTo(12.0);
        assertThat(a.get("picksHistory").size()).isEqualTo(60);
        assertThat(llama.get("decisions").get(0).get("reason").asText()).isEqualTo("prefix_hit");
        assertThat(json.get("pools").get(1).get("fallback").isNull()).isTrue();
    }

    @Test
    void attainmentPerBandCountsTheWindowsRequestsWithTargetsAndThePredictorIsThePolicys() {
        serveTargeted(1, 100); // critical, in time
        serveTargeted(1, 300); // critical, first token late
        serveTargeted(-1, 100); // sheddable, in time
        serve(A, PickReason.LEAST_LOADED, 100); // no targets: not judged
        FleetSnapshot.PoolView llama = pool("llama");
        assertThat(llama.attainment()).extracting(FleetSnapshot.Attainment::priority)
                .containsExactly("critical", "standard", "sheddable");
        assertThat(llama.attainment().get(0)).isEqualTo(new FleetSnapshot.Attainment("critical", 1, 1, 0.5));
        assertThat(llama.attainment().get(1)).isEqualTo(new FleetSnapshot.Attainment("standard", 0, 0, null));
        assertThat(llama.attainment().get(2).ratio()).isEqualTo(1.0);
        assertThat(llama.decisions()).extracting(FleetSnapshot.Decision::slo).containsExactly(null, "met", "ttft", "met");

        now.addAndGet(60 * SECOND);
        assertThat(pool("llama").attainment().get(0).attained()).as("a minute later").isZero();

        assertThat(llama.predictor()).isEqualTo(new FleetSnapshot.Predictor(0, false, null, null, null, null, null));
        assertThat(pool("small").predictor()).as("round robin predicts nothing").isNull();
    }

    @Test
    void aGlobalPoolShowsEachTargetWithItsRegionPriceAndLastCapacitySummaryAndEachDecisionItsTarget()
            throws Exception {
        Gateway tier = new Gateway(ConfigLoader.parse("""
                kind: InferenceGatewayConfig
                spec:
                  global:
                    region: home
                    clusters:
                      - {name: east, url: "http://10.1.0.1:8080", region: home, price: {input: 0.5, output: 2.0}}
                      - {name: west, url: "http://10.1.0.2:8080", region: away}
                    providers:
                      - {name: vendor, baseUrl: "https://api.vendor.example/v1", models: {"%s": vendor-8b},
                         price: {input: 2, output: 6}}
                  schedulers:
                    - {name: global, modelName: "%s"}
                """.formatted(MODEL, MODEL)), now::get);
        FleetView view = new FleetView(new LiveState(tier::pools, tier.metrics(), tier.inFlight(), now::get),
                () -> 1_700_000_000_000L);
        Endpoint east = Endpoint.parse("10.1.0.1:8080");
        Endpoint vendor = Endpoint.parse("api.vendor.example:443");
        ClusterCapacity summary = new ClusterCapacity("1", "east", "home", 3, 4, 2, 180.5, 21.0, Double.NaN,
                Double.NaN, 0.02, 0.25, 40, Set.of(), 12.345);
        tier.metrics().recordSuccess(east, new EndpointMetrics(7, 9, 0.6, Set.of(), Set.of(), 0, 16, 1000, Double.NaN,
                Double.NaN, now.get() - 80 * MS, InFlightRequests.Counters.ZERO, summary), now.get());

        RequestRecord r = new RequestRecord(now.get(), 1_700_000_000_000L, "POST", "/v1/chat/completions", "chat",
                null, null);
        r.parsed(ParsedBody.builder(MODEL).promptText("hello").promptTokensEstimate(2).build(), now.get());
        r.routedTo("global", MODEL);
        r.picked(new PickDecision(vendor, PickReason.OVERFLOW, 0, 3), 20_000);
        view.picked(r);
        r.servedBy("vendor", "", true, new io.inferencegateway.domain.Price(2, 6));
        r.answered(200, now.get() + 30 * MS);
        r.usage(1000, 500, 0);
        r.end(RequestRecord.Ending.COMPLETED, now.get() + 40 * MS);
        view.ended(r);

        FleetSnapshot.PoolView pool = view.snapshot().pools().get(0);
        assertThat(pool.homeRegion()).isEqualTo("home");
        assertThat(pool.pods()).extracting(p -> p.target().name()).containsExactly("east", "west", "vendor");
        FleetSnapshot.PodView eastRow = pool.pods().get(0);
        assertThat(eastRow.target()).isEqualTo(new FleetSnapshot.TargetView("east", "cluster", "home", true, 0.5, 2.0,
                12.35, 3, 4, 2, 0.4, 0.02, 0.25, 180.5, null, 21.0, null, 40L));
        assertThat(eastRow.queue()).as("the pods' queues and the cluster gateway's").isEqualTo(7);
        assertThat(eastRow.stale()).isFalse();
        FleetSnapshot.PodView westRow = pool.pods().get(1);
        assertThat(westRow.stale()).as("never read").isTrue();
        assertThat(westRow.target().home()).isFalse();
        assertThat(westRow.target().readyPods()).isNull();
        assertThat(westRow.target().inputPricePerMillion()).isZero();
        FleetSnapshot.PodView vendorRow = pool.pods().get(2);
        assertThat(vendorRow.target().kind()).isEqualTo("provider");
        assertThat(vendorRow.target().region()).isEmpty();
        assertThat(vendorRow.stale()).as("a provider is never polled, so never stale").isFalse();
        assertThat(vendorRow.metricsAgeMs()).isNull();
        assertThat(vendorRow.picksInWindow()).isEqualTo(1);
        assertThat(pool.freshPods()).as("the clusters with a fresh summary").isEqualTo(1);

        FleetSnapshot.Decision d = pool.decisions().get(0);
        assertThat(d.target()).isEqualTo("vendor");
        assertThat(d.pod()).isEqualTo("api.vendor.example:443");
        assertThat(d.reason()).isEqualTo("overflow");
        assertThat(d.cost()).as("1000 x 2 + 500 x 6 per million").isEqualTo(0.005);

        JsonNode json = new ObjectMapper().readTree(view.json()).get("pools").get(0);
        assertThat(json.get("homeRegion").asText()).isEqualTo("home");
        assertThat(json.get("pods").get(0).get("target").get("kvHeadroom").asDouble()).isEqualTo(0.4);
        assertThat(json.get("decisions").get(0).get("target").asText()).isEqualTo("vendor");
    }

    @Test
    void aPoolOfPodsHasNoHomeRegionNoTargetsAndNoCosts() throws Exception {
        serve(A, PickReason.LEAST_LOADED, 10);
        JsonNode llama = new ObjectMapper().readTree(fleet.json()).get("pools").get(0);
        assertThat(llama.get("homeRegion").isNull()).isTrue();
        assertThat(llama.get("pods").get(0).get("target").isNull()).isTrue();
        assertThat(llama.get("decisions").get(0).get("target").isNull()).isTrue();
        assertThat(llama.get("decisions").get(0).get("cost").isNull()).isTrue();
    }

    /** A streamed request with a 200 ms TTFT target at {@code priority}, its first token after {@code ttftMs}. */
    void serveTargeted(int priority, long ttftMs) {
        long start = now.get();
        RequestRecord r = record(MODEL);
        r.classified(InferenceRequest.builder(MODEL).priority(priority).targets(new LatencyTargets(200, 0)).build());
        r.admitted(0);
        pick(r, A, PickReason.LATENCY_TARGET);
        r.answered(200, start + MS);
        r.firstToken(start + ttftMs * MS);
        r.end(RequestRecord.Ending.COMPLETED, start + (ttftMs + 5) * MS);
        fleet.ended(r);
    }

    // ---- records as the request path fills them -------------------------------------------------

    RequestRecord record(String model) {
        RequestRecord r = new RequestRecord(now.get(), 1_700_000_000_000L, "POST", "/v1/chat/completions", "chat", null, null);
        r.parsed(ParsedBody.builder(model).promptText("hello").promptTokensEstimate(2).stream(true).build(), now.get());
        if (!model.equals("unknown-model")) {
            r.routedTo("llama", MODEL);
        }
        fleet.started(r);
        return r;
    }

    void pick(RequestRecord r, Endpoint e, PickReason reason) {
        r.picked(new PickDecision(e, reason, 64, 2), 20_000);
        fleet.picked(r);
    }

    /** One streamed request to {@code e}, its first token after {@code ttftMs}; the clock ends where it started. */
    void serve(Endpoint e, PickReason reason, long ttftMs) {
        long start = now.get();
        RequestRecord r = record(MODEL);
        pick(r, e, reason);
        r.answered(200, start + MS);
        r.firstToken(start + ttftMs * MS);
        r.usage(120, 7, 48);
        r.end(RequestRecord.Ending.COMPLETED, start + (ttftMs + 5) * MS);
        fleet.ended(r);
    }

    FleetSnapshot.PoolView pool(String name) {
        return fleet.snapshot().pools().stream().filter(p -> p.name().equals(name)).findFirst().orElseThrow();
    }

    FleetSnapshot.PodView pod(String pool, Endpoint e) {
        return pool(pool).pods().stream().filter(p -> p.pod().equals(e.toString())).findFirst().orElseThrow();
    }
}
