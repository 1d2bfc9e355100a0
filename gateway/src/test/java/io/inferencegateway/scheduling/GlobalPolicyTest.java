package io.inferencegateway.scheduling;

import static io.inferencegateway.domain.SchedulingPolicy.decideNow;
import static io.inferencegateway.scheduling.Scenarios.MODEL;
import static io.inferencegateway.scheduling.Scenarios.prompt;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.random.RandomGenerator;

import org.junit.jupiter.api.Test;

import io.inferencegateway.domain.SchedulingPolicy;
import io.inferencegateway.scheduling.latency.LatencyPredictor;
import io.inferencegateway.scheduling.prefix.PrefixSharing;
import io.inferencegateway.config.EndpointPickerConfig;
import io.inferencegateway.config.PluginConfig;
import io.inferencegateway.config.ProfileConfig;
import io.inferencegateway.config.GlobalWeights;
import io.inferencegateway.config.OutlierConfig;
import io.inferencegateway.config.PoolConfig;
import io.inferencegateway.config.TargetConfig;
import io.inferencegateway.config.TargetConfig.Kind;
import io.inferencegateway.domain.Price;
import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.GatewayError;
import io.inferencegateway.domain.InFlightRequests;
import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.domain.LatencyTargets;
import io.inferencegateway.domain.NanoClock;
import io.inferencegateway.domain.PickDecision;
import io.inferencegateway.domain.PickReason;
import io.inferencegateway.domain.Priority;
import io.inferencegateway.domain.Residency;
import io.inferencegateway.metrics.ClusterCapacity;
import io.inferencegateway.metrics.EndpointMetrics;
import io.inferencegateway.pool.ModelPool;
import io.inferencegateway.pool.Placement;

/**
 * The GPU-aware policy on a global tier's pool with the default global weights: three clusters in three regions (home
 * us-east) and one external provider, each summary written by hand.
 */
class GlobalPolicyTest {

    private static final long MS = 1_000_000L;
    private static final RandomGenerator FIRST_OF_TIES = () -> 0L;

    private static final TargetConfig EAST = target("east", Kind.CLUSTER, "us-east", 1.0, 2.0);
    private static final TargetConfig WEST = target("west", Kind.CLUSTER, "eu-west", 0.6, 1.2);
    private static final TargetConfig SOUTH = target("south", Kind.CLUSTER, "ap-south", 0.3, 0.6);
    private static final TargetConfig PROVIDER = target("provider", Kind.PROVIDER, "", 0.1, 0.2);
    private static final List<TargetConfig> TARGETS = List.of(EAST, WEST, SOUTH, PROVIDER);

    private final Endpoint east = EAST.address();
    private final Endpoint west = WEST.address();
    private final Endpoint south = SOUTH.address();
    private final Endpoint provider = PROVIDER.address();
    private final List<Endpoint> all = List.of(east, west, south, provider);

    private final long[] now = {1_000 * MS};
    private final NanoClock clock = () -> now[0];
    private final InFlightRequests inFlight = new InFlightRequests();
    private final Map<Endpoint, EndpointMetrics> summaries = new HashMap<>();

    private static TargetConfig target(String name, Kind kind, String region, double in, double out) {
        return new TargetConfig(name, kind, new Endpoint(name + ".example", 443), true, "", region, new Price(in, out),
                null, Map.of());
    }

    private static PoolConfig pool(List<TargetConfig> targets) {
        return PoolConfig.builder(MODEL).name("global").engine(PoolConfig.GATEWAY_ENGINE)
                .endpoints(targets.stream().map(TargetConfig::address).toList()).targets(targets).homeRegion("us-east")
                .metricsInterval(Duration.ofMillis(250)).outlierDetection(new OutlierConfig(2, 0, 20,
                        Duration.ofSeconds(10), Duration.ofSeconds(30), Duration.ofSeconds(300), 100))
                .build();
    }

    private PluginPolicy policy() {
        return PluginPolicy.forPool(pool(TARGETS), summaries::get, inFlight, clock, SchedulerEvents.NONE,
                FIRST_OF_TIES);
    }

    /**
     * A summary of {@code e} polled now: 10 ready pods, nothing queued, KV 20 % used, first token predicted in
     * {@code ttft} ms, the poll's round trip {@code rtt} ms; {@code what} changes the rest.
     */
    private void polled(Endpoint e, double ttft, double rtt, UnaryOperator<Summary> what) {
        Summary s = what.apply(new Summary(10, 0, ttft, 0, rtt, 0, 0.2));
        ClusterCapacity c = Scenarios.summary(s.readyPods, s.errors, s.ttft, 20, s.ttft, 20, s.saturation, s.rtt);
        summaries.put(e, Scenarios.scrape().at(now[0]).dispatched(inFlight.snapshot(e)).waiting(s.waiting).kv(s.kv)
                .cluster(c).build());
    }

    private void polled(Endpoint e, double ttft, double rtt) {
        polled(e, ttft, rtt, s -> s);
    }

    record Summary(int readyPods, double errors, double ttft, double saturation, double rtt, int waiting, double kv) {
        Summary saturated() {
            return new Summary(readyPods, errors, ttft, 0.9, rtt, waiting, kv);
        }

        Summary waiting(int w) {
            return new Summary(readyPods, errors, ttft, saturation, rtt, w, kv);
        }

        Summary errors(double e) {
            return new Summary(readyPods, e, ttft, saturation, rtt, waiting, kv);
        }
    }

    /** East near and fine, west farther and faster, south farthest and cheapest. */
    private void usual() {
        polled(east, 200, 5);
        polled(west, 60, 80);
        polled(south, 150, 180);
    }

    private static InferenceRequest request(int priority) {
        return InferenceRequest.builder(MODEL).promptText("a question").promptTokensEstimate(1000).stream(true)
                .maxTokens(500).priority(priority).build();
    }

    private static InferenceRequest conversation(int priority) {
        String history = prompt("conversation", 40);
        return InferenceRequest.builder(MODEL).promptText(history)
                .promptTokensEstimate(InferenceRequest.estimateTokens(history)).stream(true).maxTokens(500)
                .priority(priority).build();
    }

    @Test
    void aStandardRequestStaysHomeUntilHomeSaturatesThenSpillsToAnotherRegionNotToTheProvider() {
        PluginPolicy policy = policy();
        usual();

        PickDecision home = decideNow(policy, request(Priority.STANDARD), all);
        assertThat(home.endpoint()).isEqualTo(east);
        assertThat(home.reason()).isEqualTo(PickReason.HOME_REGION);

        polled(east, 200, 5, Summary::saturated);
        PickDecision spilled = decideNow(policy, request(Priority.STANDARD), all);
        assertThat(spilled.endpoint()).isIn(west, south);

        polled(east, 200, 5, s -> s.waiting(60)); // 6 queued per ready pod
        assertThat(decideNow(policy, request(Priority.STANDARD), all).endpoint()).isIn(west, south);
    }

    @Test
    void aStandardRequestHomeWouldServeLateGoesWhereItIsInTime() {
        PluginPolicy policy = policy();
        usual(); // east 205 ms to the first token, west 140, south 330
        InferenceRequest within = request(Priority.STANDARD).toBuilder().priority(Priority.STANDARD)
                .targets(new LatencyTargets(180, 0)).build();

        assertThat(decideNow(policy, within, all).endpoint()).isEqualTo(west);
    }

    @Test
    void aCriticalRequestGoesToTheFastestTargetEvenIfItIsFar() {
        PluginPolicy policy = policy();
        polled(east, 400, 5); // 405 ms
        polled(west, 50, 80); // 130 ms
        polled(south, 150, 180); // 330 ms

        PickDecision d = decideNow(policy, request(Priority.CRITICAL), all);

        assertThat(d.endpoint()).isEqualTo(west);
        assertThat(d.reason()).isEqualTo(PickReason.FASTEST_TARGET);
    }

    @Test
    void aSheddableRequestGoesToTheCheapestClusterThatIsNotSaturatedAndNeverToTheProviderWhileOneCan() {
        PluginPolicy policy = policy();
        usual();

        PickDecision cheapest = decideNow(policy, request(Priority.SHEDDABLE), all);
        assertThat(cheapest.endpoint()).isEqualTo(south);
        assertThat(cheapest.reason()).isEqualTo(PickReason.CHEAPEST_TARGET);

        polled(south, 150, 180, Summary::saturated);
        assertThat(decideNow(policy, request(Priority.SHEDDABLE), all).endpoint()).isEqualTo(west);
    }

    @Test
    void theProviderServesOnlyWhenEveryClusterIsSaturatedStaleOrWithoutReadyPods() {
        PluginPolicy policy = policy();
        polled(east, 200, 5, Summary::saturated);
        polled(west, 60, 80, Summary::saturated);
        polled(south, 150, 180, Summary::saturated);

        PickDecision overflow = decideNow(policy, request(Priority.STANDARD), all);
        assertThat(overflow.endpoint()).isEqualTo(provider);
        assertThat(overflow.reason()).isEqualTo(PickReason.OVERFLOW);

        usual();
        polled(south, 150, 180, s -> new Summary(0, 0, 150, 0, 180, 0, 0.2)); // no ready pod
        now[0] += 2_000 * MS; // east and west go stale: 2 s after their poll
        polled(south, 150, 180, s -> new Summary(0, 0, 150, 0, 180, 0, 0.2));
        assertThat(decideNow(policy, request(Priority.CRITICAL), all).endpoint()).isEqualTo(provider);
    }

    @Test
    void theProviderServesWhenOutlierDetectionEjectedEveryCluster() {
        PoolConfig config = pool(TARGETS);
        PluginPolicy policy = PluginPolicy.forPool(config, summaries::get, inFlight, clock, SchedulerEvents.NONE,
                FIRST_OF_TIES);
        ModelPool pool = new ModelPool(config, policy, all, inFlight, clock);
        usual();
        for (Endpoint cluster : List.of(east, west, south)) {
            pool.outliers().failure(cluster);
            pool.outliers().failure(cluster); // two in a row: ejected
        }

        Placement placement = Placement.choose(pool, request(Priority.STANDARD));
        placement.finish();

        assertThat(placement.endpoint()).isEqualTo(provider);
    }

    @Test
    void whatTheGatewaySawFailSteersAwayFromAFailingClusterAmongEqualOnes() {
        PoolConfig config = pool(TARGETS);
        ModelPool pool = new ModelPool(config, failures -> PluginPolicy.forPool(config, summaries::get, inFlight, clock,
                SchedulerEvents.NONE, FIRST_OF_TIES, PrefixSharing.NONE, new LatencyPredictor("p"), failures), all,
                inFlight, clock);
        SchedulingPolicy policy = pool.policy();
        polled(east, 100, 40);
        polled(west, 100, 40);
        polled(south, 100, 40, Summary::saturated);
        pool.outliers().success(west);
        pool.outliers().failure(west); // one of two failed: 50 %, not ejected (two in a row eject)
        pool.outliers().success(west);

        PickDecision d = decideNow(policy, request(Priority.CRITICAL), all);

        assertThat(d.endpoint()).isEqualTo(east);
        assertThat(d.reason()).isEqualTo(PickReason.FEWEST_ERRORS);
    }

    @Test
    void aTenantPinnedToARegionIsServedThereAndOneAllowedNowhereGetsAClearError() {
        PluginPolicy policy = policy();
        usual();
        InferenceRequest pinnedWest = request(Priority.STANDARD).toBuilder()
                .residency(new Residency(Set.of("eu-west"), false)).build();

        assertThat(decideNow(policy, pinnedWest, all).endpoint()).isEqualTo(west);

        polled(west, 60, 80, Summary::saturated); // full, and the provider is barred: still west
        assertThat(decideNow(policy, pinnedWest, all).endpoint()).isEqualTo(west);

        InferenceRequest pinnedNowhere = request(Priority.STANDARD)
                .toBuilder().residency(new Residency(Set.of("sa-east"), false)).build();
        assertThatThrownBy(() -> decideNow(policy, pinnedNowhere, all))
                .isInstanceOfSatisfying(GatewayError.class,
                        e -> assertThat(e.reason()).isEqualTo(GatewayError.Reason.NO_ENDPOINT))
                .hasMessageContaining("pinned to region(s) sa-east and barred from external providers");
        assertThat(decideNow(policy, pinnedWest, all).endpoint()).as("the policy decides on after a refusal")
                .isEqualTo(west);
    }

    @Test
    void aConversationStaysOnItsClusterWhileItIsHealthyAndMovesWhenItIsNot() {
        PluginPolicy policy = policy();
        polled(east, 400, 5);
        polled(west, 50, 80); // 130 ms: the fastest
        polled(south, 150, 180);
        assertThat(decideNow(policy, conversation(Priority.CRITICAL), all).endpoint()).isEqualTo(west);

        polled(east, 110, 5); // now 115 ms: faster than west, but not by half
        PickDecision next = decideNow(policy, conversation(Priority.CRITICAL), all);
        assertThat(next.endpoint()).isEqualTo(west);
        assertThat(next.reason()).isEqualTo(PickReason.PREFIX_HIT);
        assertThat(decideNow(policy, request(Priority.CRITICAL), all).endpoint()).as("a new conversation")
                .isEqualTo(east);

        now[0] += 2_000 * MS; // west's summary goes stale; the others are polled again
        polled(east, 110, 5);
        polled(south, 150, 180);
        assertThat(decideNow(policy, conversation(Priority.CRITICAL), all).endpoint()).isEqualTo(east);
    }

    @Test
    void aClusterWithAStaleSummaryIsSkipped() {
        PluginPolicy policy = policy();
        polled(east, 200, 5);
        now[0] += 2_000 * MS;
        polled(west, 60, 80);
        polled(south, 150, 180);

        assertThat(decideNow(policy, request(Priority.STANDARD), all).endpoint()).isIn(west, south);
        assertThat(policy.inFallback()).as("a global pool never falls back to in-flight counts").isFalse();
    }

    @Test
    void theDefaultGlobalProfileIsTheGlobalWeightsPluginList() {
        assertThat(policy().profile()).hasToString("filters=[residency-filter, target-health-filter, overflow-filter] "
                + "scorers=[kv-cache-scorer×1, queue-depth-scorer×2, region-proximity-scorer×1, error-rate-scorer×2, "
                + "cost-scorer×1, prefix-cache-scorer×4, priority-scorer×8] picker=max-score-picker");
        assertThat(pool(TARGETS).endpointPicker()).isEqualTo(GlobalWeights.DEFAULT.endpointPicker());
    }

    @Test
    void aPoolOfTargetsBringsItsResidencyFilterFirstWhenItsPluginsNameNone() {
        PoolConfig config = PoolConfig.builder(MODEL).name("global").engine(PoolConfig.GATEWAY_ENGINE)
                .endpoints(TARGETS.stream().map(TargetConfig::address).toList()).targets(TARGETS)
                .homeRegion("us-east").endpointPicker(new EndpointPickerConfig(List.of(PluginConfig.of("overflow-filter"),
                        PluginConfig.of("cost-scorer"), PluginConfig.of("max-score-picker")),
                        new ProfileConfig("p", List.of(new ProfileConfig.ProfileEntry("overflow-filter", 0),
                                new ProfileConfig.ProfileEntry("cost-scorer", 1),
                                new ProfileConfig.ProfileEntry("max-score-picker", 0)))))
                .build();
        PluginPolicy policy = PluginPolicy.forPool(config, summaries::get, inFlight, clock, SchedulerEvents.NONE,
                FIRST_OF_TIES);

        assertThat(policy.profile().filters()).map(Object::toString)
                .containsExactly("residency-filter", "overflow-filter");
    }
}
