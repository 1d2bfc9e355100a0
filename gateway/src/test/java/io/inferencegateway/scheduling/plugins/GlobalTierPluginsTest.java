package io.inferencegateway.scheduling.plugins;

import static io.inferencegateway.scheduling.Scenarios.MODEL;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.inferencegateway.config.TargetConfig;
import io.inferencegateway.config.TargetConfig.Kind;
import io.inferencegateway.domain.Price;
import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.GatewayError;
import io.inferencegateway.domain.InFlightRequests.Counters;
import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.domain.LatencyTargets;
import io.inferencegateway.domain.PickReason;
import io.inferencegateway.domain.Priority;
import io.inferencegateway.domain.Residency;
import io.inferencegateway.metrics.ClusterCapacity;
import io.inferencegateway.metrics.EndpointMetrics;
import io.inferencegateway.scheduling.Scenarios;
import io.inferencegateway.scheduling.framework.EndpointState;
import io.inferencegateway.scheduling.framework.Filter;
import io.inferencegateway.scheduling.framework.LoadEstimator;
import io.inferencegateway.scheduling.framework.SchedulingCycle;
import io.inferencegateway.scheduling.framework.Scorer;

/** The global tier's filters and scorers, one candidate list at a time, with summaries written by hand. */
class GlobalTierPluginsTest {

    private static final long NOW = 10_000_000_000L;
    private static final long STALE_AFTER = 1_000_000_000L;

    /** One candidate: a target, what its summary says (null: never read) and how old the summary is. */
    record T(TargetConfig target, int waiting, double kv, ClusterCapacity summary, long ageMillis, double seenFailing) {

        T stale() {
            return new T(target, waiting, kv, summary, 5_000, seenFailing);
        }

        T waiting(int w) {
            return new T(target, w, kv, summary, ageMillis, seenFailing);
        }

        T kv(double k) {
            return new T(target, waiting, k, summary, ageMillis, seenFailing);
        }

        T seenFailing(double ratio) {
            return new T(target, waiting, kv, summary, ageMillis, ratio);
        }

        T summary(ClusterCapacity c) {
            return new T(target, waiting, kv, c, ageMillis, seenFailing);
        }

        @Override
        public String toString() {
            return target.name();
        }
    }

    static TargetConfig target(String name, Kind kind, String region, double inPrice, double outPrice) {
        return new TargetConfig(name, kind, new Endpoint(name + ".example", 443), true, "", region,
                new Price(inPrice, outPrice), null, Map.of());
    }

    /** A healthy cluster: 10 ready pods, no errors, none saturated, first token predicted in {@code ttft} ms. */
    static ClusterCapacity summary(double ttft, double rtt) {
        return Scenarios.summary(10, 0, ttft, 20, ttft, 20, 0, rtt);
    }

    static T cluster(String name, String region, double ttft, double rtt) {
        return new T(target(name, Kind.CLUSTER, region, 1, 2), 0, 0.2, summary(ttft, rtt), 0, Double.NaN);
    }

    static T priced(String name, String region, double inPrice, double outPrice) {
        return new T(target(name, Kind.CLUSTER, region, inPrice, outPrice), 0, 0.2, summary(100, 10), 0, Double.NaN);
    }

    static T provider(String name, double inPrice, double outPrice) {
        return new T(target(name, Kind.PROVIDER, "", inPrice, outPrice), 0, Double.NaN, null, 0, Double.NaN);
    }

    static ClusterCapacity saturation(double share) {
        return Scenarios.summary(10, 0, 100, 20, 100, 20, share, 10);
    }

    static List<EndpointState> states(T... candidates) {
        LoadEstimator estimator = new LoadEstimator(STALE_AFTER);
        List<EndpointState> out = new ArrayList<>();
        for (T t : candidates) {
            EndpointState s = new EndpointState();
            EndpointMetrics m = t.summary == null && t.target.provider() ? null
                    : Scenarios.scrape().waiting(t.waiting).kv(t.kv).at(NOW - t.ageMillis * 1_000_000)
                            .cluster(t.summary).build();
            estimator.estimate(s, t.target.address(), m, Counters.ZERO, NOW);
            s.target(t.target, t.seenFailing);
            out.add(s);
        }
        return out;
    }

    static InferenceRequest request(int priority) {
        return InferenceRequest.builder(MODEL).promptText("hello").promptTokensEstimate(1000).stream(true)
                .maxTokens(500).priority(priority).build();
    }

    static SchedulingCycle cycle(InferenceRequest r) {
        return new SchedulingCycle().begin(r, NOW).pool("p", "us-east");
    }

    static double[] score(Scorer scorer, InferenceRequest r, T... candidates) {
        double[] scores = new double[candidates.length];
        scorer.score(cycle(r), states(candidates), scores);
        return scores;
    }

    static List<String> kept(Filter filter, InferenceRequest r, T... candidates) {
        return filter.filter(cycle(r), states(candidates)).stream().map(s -> s.target().name()).toList();
    }

    // ------------------------------------------------------------------ residency-filter

    static Stream<Arguments> residency() {
        T east = cluster("east", "us-east", 100, 5);
        T west = cluster("west", "eu-west", 100, 80);
        T openai = provider("openai", 2, 8);
        return Stream.of(
                Arguments.of("no pin: everyone", Residency.ANY, List.of(east, west, openai),
                        List.of("east", "west", "openai")),
                Arguments.of("pinned to eu-west: its cluster only (a provider has no region in the pin)",
                        new Residency(Set.of("eu-west"), true), List.of(east, west, openai), List.of("west")),
                Arguments.of("barred from providers: every cluster", new Residency(Set.of(), false),
                        List.of(east, west, openai), List.of("east", "west")),
                Arguments.of("two regions allowed", new Residency(Set.of("eu-west", "us-east"), false),
                        List.of(east, west, openai), List.of("east", "west")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("residency")
    void residencyFilterKeepsWhatThePinAllows(String scenario, Residency pin, List<T> candidates, List<String> kept) {
        assertThat(kept(new ResidencyFilter(), request(0).toBuilder().residency(pin).build(),
                candidates.toArray(T[]::new)))
                .containsExactlyElementsOf(kept);
    }

    @Test
    void residencyFilterRefusesWithAnErrorNamingThePinWhenNothingIsAllowed() {
        ResidencyFilter filter = new ResidencyFilter();
        InferenceRequest r = request(0).toBuilder().residency(new Residency(Set.of("ap-south"), false)).build();
        SchedulingCycle cycle = cycle(r);

        assertThat(filter.filter(cycle, states(cluster("east", "us-east", 100, 5), provider("openai", 2, 8))))
                .isEmpty();
        GatewayError refusal = filter.refusal(cycle);
        assertThat(refusal.reason()).isEqualTo(GatewayError.Reason.NO_ENDPOINT);
        assertThat(refusal).hasMessage("No cluster or provider of pool 'p' that this request may use is available: "
                + "its tenant is pinned to region(s) ap-south and barred from external providers");
    }

    // ------------------------------------------------------------------ target-health-filter

    @Test
    void targetHealthFilterDropsStaleUnreadAndPodlessClustersButNotProviders() {
        T ok = cluster("ok", "us-east", 100, 5);
        T stale = cluster("stale", "us-east", 100, 5).stale();
        T unread = cluster("unread", "us-east", 100, 5).summary(null);
        T noPods = cluster("noPods", "us-east", 100, 5).summary(Scenarios.summary(0, 0, 100, 20, 100, 20, 0, 5));
        T openai = provider("openai", 2, 8);
        SchedulingCycle cycle = cycle(request(0));

        List<EndpointState> kept = new TargetHealthFilter().filter(cycle, states(ok, stale, unread, noPods, openai));

        assertThat(kept).extracting(s -> s.target().name()).containsExactly("ok", "openai");
    }

    @Test
    void targetHealthFilterFallsBackToClustersThatMayStillAnswerButRefusesWhenEveryOneIsLost() {
        T lost = cluster("lost", "us-east", 100, 5).stale(); // read once, silent since: a partition, a dead gateway
        T noPods = cluster("noPods", "us-east", 100, 5).summary(Scenarios.summary(0, 0, 100, 20, 100, 20, 0, 5));
        TargetHealthFilter filter = new TargetHealthFilter();

        assertThat(kept(filter, request(0), lost, noPods)).as("its gateway still answers, if with an error")
                .containsExactly("noPods");
        SchedulingCycle cycle = cycle(request(0));
        assertThat(filter.filter(cycle, states(lost))).as("not left to wait a route timeout on a silent cluster")
                .isEmpty();
        assertThat(filter.refusal(cycle)).hasMessage("No cluster of pool 'p' that this request may use has answered "
                + "its capacity poll lately: they are unreachable or down");
    }

    // ------------------------------------------------------------------ overflow-filter

    static Stream<Arguments> overflow() {
        T home = cluster("home", "us-east", 100, 5);
        T away = cluster("away", "eu-west", 100, 80);
        T openai = provider("openai", 2, 8);
        return Stream.of(
                Arguments.of("standard: home only, no provider", 0, List.of(home, away, openai), List.of("home")),
                Arguments.of("critical: any region, no provider", 1, List.of(home, away, openai),
                        List.of("home", "away")),
                Arguments.of("sheddable: any region, no provider", -1, List.of(home, away, openai),
                        List.of("home", "away")),
                Arguments.of("standard, home saturated (summary): spills to the other region", 0,
                        List.of(home.summary(saturation(0.9)), away, openai), List.of("away")),
                Arguments.of("standard, home queues 5 per ready pod: spills", 0, List.of(home.waiting(50), away),
                        List.of("away")),
                Arguments.of("standard, home KV full: spills", 0, List.of(home.kv(0.85), away), List.of("away")),
                Arguments.of("standard, home stale: spills", 0, List.of(home.stale(), away), List.of("away")),
                Arguments.of("every cluster saturated: the provider alone", 0,
                        List.of(home.summary(saturation(0.8)), away.summary(saturation(1)), openai), List.of("openai")),
                Arguments.of("every cluster saturated, no provider: all stay", -1,
                        List.of(home.summary(saturation(0.8)), away.summary(saturation(1))), List.of("home", "away")),
                Arguments.of("just below the thresholds: still home", 0,
                        List.of(home.waiting(49).kv(0.79).summary(saturation(0.79)), away), List.of("home")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("overflow")
    void overflowFilterKeepsProvidersForOverflowAndStandardTrafficAtHome(String scenario, int priority,
            List<T> candidates, List<String> kept) {
        OverflowFilter filter = new OverflowFilter(0.8, 5, 0.8);
        assertThat(kept(filter, request(priority), candidates.toArray(T[]::new))).containsExactlyElementsOf(kept);
    }

    @Test
    void overflowFilterSpillsAStandardRequestTheHomeRegionWouldServeLate() {
        OverflowFilter filter = new OverflowFilter(0.8, 5, 0.8);
        T home = cluster("home", "us-east", 300, 5); // 305 ms to the first token
        T away = cluster("away", "eu-west", 60, 80); // 140 ms
        InferenceRequest within200 = request(0).toBuilder().priority(0).targets(new LatencyTargets(200, 0)).build();
        InferenceRequest within400 = request(0).toBuilder().priority(0).targets(new LatencyTargets(400, 0)).build();

        assertThat(kept(filter, within200, home, away)).containsExactly("away");
        assertThat(kept(filter, within400, home, away)).containsExactly("home");
    }

    // ------------------------------------------------------------------ scorers

    @Test
    void kvHeadroomIsTheKvCacheScorerOnAClustersUsage() {
        assertThat(score(LoadScorer.kvCache(), request(0), cluster("a", "x", 100, 5).kv(0.25),
                cluster("b", "x", 100, 5).kv(0.75))).containsExactly(new double[] {0.75, 0.25}, within(1e-12));
    }

    @Test
    void queueDepthScorerComparesQueuesPerReadyPod() {
        T big = cluster("big", "x", 100, 5).waiting(40).summary(Scenarios.summary(20, 0, 100, 20, 100, 20, 0, 5));
        T small = cluster("small", "x", 100, 5).waiting(10).summary(Scenarios.summary(2, 0, 100, 20, 100, 20, 0, 5));
        T idle = cluster("idle", "x", 100, 5);

        // 2, 5 and 0 per pod: (5-2)/5, 0, 1
        assertThat(score(LoadScorer.queueDepth(), request(0), big, small, idle))
                .containsExactly(new double[] {0.6, 0.0, 1.0}, within(1e-12));
    }

    @Test
    void regionProximityScorerPrefersTheShortestMeasuredRoundTripAndGivesTheUnmeasuredNothing() {
        assertThat(score(new RegionProximityScorer(), request(0), cluster("near", "x", 100, 10),
                cluster("far", "y", 100, 40), cluster("local", "z", 100, 0.2).summary(summary(100, 10)),
                provider("openai", 1, 1))).containsExactly(new double[] {1.0, 0.25, 1.0, 0.0}, within(1e-12));
    }

    @Test
    void errorRateScorerTakesTheWorseOfTheSummaryAndWhatTheGatewaySaw() {
        T clean = cluster("clean", "x", 100, 5);
        T reported = cluster("reported", "x", 100, 5).summary(Scenarios.summary(10, 0.2, 100, 20, 100, 20, 0, 5));
        T seen = cluster("seen", "x", 100, 5).seenFailing(0.5);
        T both = reported.seenFailing(0.1);
        T unknownProvider = provider("openai", 1, 1);
        T failingProvider = provider("flaky", 1, 1).seenFailing(0.3);

        assertThat(score(new ErrorRateScorer(), request(0), clean, reported, seen, both, unknownProvider,
                failingProvider)).containsExactly(new double[] {1.0, 0.8, 0.5, 0.8, 1.0, 0.7}, within(1e-12));
    }

    static Stream<Arguments> cost() {
        return Stream.of(
                Arguments.of("half the price scores twice: cheapest 1, double 0.5", new double[][] {{1, 2}, {2, 4}},
                        new double[] {1.0, 0.5}),
                Arguments.of("equal prices score equal", new double[][] {{1, 2}, {1, 2}}, new double[] {1.0, 1.0}),
                Arguments.of("the prompt weighs the input price: 1000 in, 500 out", new double[][] {{3, 1}, {1, 5}},
                        // 3000+500 = 3500 vs 1000+2500 = 3500: equal for this request
                        new double[] {1.0, 1.0}),
                Arguments.of("next to a free target every paid one scores 0", new double[][] {{0, 0}, {1, 1}},
                        new double[] {1.0, 0.0}));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cost")
    void costScorerRatesThisRequestsCostOnEachTarget(String scenario, double[][] prices, double[] expected) {
        T[] candidates = new T[prices.length];
        for (int i = 0; i < prices.length; i++) {
            candidates[i] = priced("c" + i, "x", prices[i][0], prices[i][1]);
        }
        assertThat(score(new CostScorer(256), request(0), candidates)).containsExactly(expected, within(1e-12));
    }

    @Test
    void costScorerUsesItsOutputEstimateWithoutMaxTokens() {
        T inputHeavy = priced("in", "x", 10, 1);
        T outputHeavy = priced("out", "x", 1, 10);
        InferenceRequest noBudget = InferenceRequest.builder(MODEL).promptText("hi").promptTokensEstimate(100)
                .stream(true).build(); // 100 in, 256 out
        // in: 1000 + 256 = 1256; out: 100 + 2560 = 2660
        assertThat(score(new CostScorer(256), noBudget, inputHeavy, outputHeavy))
                .containsExactly(new double[] {1.0, 1256.0 / 2660}, within(1e-12));
    }

    @Test
    void priorityScorerSendsCriticalToTheFastestRoundTripIncluded() {
        T near = cluster("near", "us-east", 300, 5); // 305
        T far = cluster("far", "eu-west", 40, 80); // 120
        T provider = provider("openai", 1, 1); // unknown
        PriorityScorer scorer = new PriorityScorer(256);

        assertThat(score(scorer, request(Priority.CRITICAL), near, far, provider))
                .containsExactly(new double[] {120.0 / 305, 1.0, 0.0}, within(1e-12));
        assertThat(scorer.reason(cycle(request(Priority.CRITICAL)))).isEqualTo(PickReason.FASTEST_TARGET);
    }

    @Test
    void priorityScorerFallsBackToRecentTimesThenQueues() {
        T predicted = cluster("predicted", "x", 100, 10); // 110
        T recentOnly = cluster("recent", "x", 100, 10).summary(Scenarios.summary(10, 0, 210, 20, Double.NaN,
                Double.NaN, 0, 10)); // 220
        assertThat(score(new PriorityScorer(256), request(Priority.CRITICAL), predicted, recentOnly))
                .containsExactly(new double[] {1.0, 0.5}, within(1e-12));

        ClusterCapacity timeless = Scenarios.summary(10, 0, Double.NaN, Double.NaN, Double.NaN, Double.NaN, 0, Double.NaN);
        T busy = cluster("busy", "x", 0, 0).summary(timeless).waiting(40);
        T idle = cluster("idle", "x", 0, 0).summary(timeless);
        assertThat(score(new PriorityScorer(256), request(Priority.CRITICAL), busy, idle))
                .containsExactly(new double[] {0.0, 1.0}, within(1e-12));
    }

    @Test
    void priorityScorerSendsSheddableToTheCheapestInTimeAndLeavesStandardToTheOthers() {
        T cheapButSlow = priced("cheap", "x", 0.5, 1).summary(summary(900, 100)); // 1 s to the first token
        T dear = priced("dear", "y", 1, 2).summary(summary(100, 10));
        PriorityScorer scorer = new PriorityScorer(256);

        assertThat(score(scorer, request(Priority.SHEDDABLE), cheapButSlow, dear))
                .containsExactly(new double[] {1.0, 0.5}, within(1e-12));
        InferenceRequest within500 = request(Priority.SHEDDABLE).toBuilder().priority(-1)
                .targets(new LatencyTargets(500, 0)).build();
        assertThat(score(scorer, within500, cheapButSlow, dear)).containsExactly(new double[] {0.0, 1.0},
                within(1e-12));
        assertThat(scorer.reason(cycle(within500))).isEqualTo(PickReason.CHEAPEST_TARGET);
        assertThat(score(scorer, request(Priority.STANDARD), cheapButSlow, dear)).containsOnly(0.0);
    }

    @Test
    void everyGlobalPluginLeavesPodsAlone() {
        List<EndpointState> pods = Scenarios.states(Scenarios.scrape(1, 2, 0.5), Scenarios.scrape(3, 2, 0.5));
        InferenceRequest pinned = request(0).toBuilder().residency(new Residency(Set.of("eu-west"), false)).build();
        for (Filter f : List.of(new ResidencyFilter(), new TargetHealthFilter(), new OverflowFilter(0.8, 5, 0.8))) {
            assertThat(f.filter(cycle(pinned), pods)).as(f.toString()).isSameAs(pods);
        }
        assertThatThrownBy(() -> pods.get(0).target().name()).isInstanceOf(NullPointerException.class);
    }
}
