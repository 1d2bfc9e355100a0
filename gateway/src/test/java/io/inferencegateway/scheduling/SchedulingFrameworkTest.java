package io.inferencegateway.scheduling;

import static io.inferencegateway.scheduling.Scenarios.MODEL;
import static io.inferencegateway.scheduling.Scenarios.pod;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.inferencegateway.config.FlowControlConfig;
import io.inferencegateway.config.PoolConfig;
import io.inferencegateway.config.SloConfig;
import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.InFlightRequests;
import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.domain.LatencyTargets;
import io.inferencegateway.domain.NanoClock;
import io.inferencegateway.domain.PickDecision;
import io.inferencegateway.domain.PickReason;
import io.inferencegateway.domain.Priority;
import io.inferencegateway.domain.Scheduling;
import io.inferencegateway.metrics.EndpointMetrics;
import io.inferencegateway.metrics.MetricsView;
import io.inferencegateway.pool.ModelPool;
import io.inferencegateway.pool.Placement;
import io.inferencegateway.scheduling.framework.EndpointState;
import io.inferencegateway.scheduling.framework.PluginContext;
import io.inferencegateway.scheduling.framework.ProfileHandler;
import io.inferencegateway.scheduling.framework.ProfileResult;
import io.inferencegateway.scheduling.framework.SchedulerProfile;
import io.inferencegateway.scheduling.framework.SchedulingCycle;
import io.inferencegateway.scheduling.framework.Scorer;
import io.inferencegateway.scheduling.latency.LatencyPredictor;
import io.inferencegateway.scheduling.plugins.MaxScorePicker;
import io.inferencegateway.scheduling.prefix.PrefixSharing;

/** The framework's promises: one snapshot per request, shared by admission and every profile that runs. */
class SchedulingFrameworkTest {

    private static final Duration STALE_AFTER = Duration.ofSeconds(1);

    private final long[] now = {1_000_000_000L};
    private final NanoClock clock = () -> now[0];
    private final InFlightRequests inFlight = new InFlightRequests();
    private final Map<Endpoint, EndpointMetrics> scrapes = new HashMap<>();
    /** Every read of a candidate's scrape: one per candidate is one state built. */
    private final AtomicInteger scrapeReads = new AtomicInteger();
    private final MetricsView counted = endpoint -> {
        scrapeReads.incrementAndGet();
        return scrapes.get(endpoint);
    };
    private final List<Endpoint> pods = List.of(pod(1), pod(2), pod(3), pod(4));

    private void idle() {
        for (Endpoint e : pods) {
            scrapes.put(e, Scenarios.scrape().kv(0.1).at(now[0]).dispatched(inFlight.snapshot(e)).build());
        }
    }

    /** A critical request with a latency target: admission reads both saturation and the prediction. */
    private static InferenceRequest targeted() {
        return InferenceRequest.builder(MODEL).promptText("a question").promptTokensEstimate(3).stream(true)
                .priority(Priority.CRITICAL).targets(new LatencyTargets(500, 0)).build();
    }

    @Test
    void aRequestsCandidatesAreBuiltOnceFromItsAdmissionToItsPick() {
        PoolConfig config = PoolConfig.builder(MODEL).name("p").endpoints(pods)
                .flowControl(new FlowControlConfig(true, 100, Duration.ofSeconds(10), Duration.ofSeconds(1), 0,
                        Map.of(), true))
                .slo(new SloConfig(new LatencyTargets(500, 0), Map.of())).build();
        LatencyPredictor predictor = new LatencyPredictor("p");
        ModelPool pool = new ModelPool(config, failures -> PluginPolicy.forPool(config, counted, inFlight, clock,
                SchedulerEvents.NONE, () -> 0L, PrefixSharing.NONE, predictor, failures), pods, inFlight, clock);
        idle();
        for (int i = 0; i < LatencyPredictor.MIN_SAMPLES; i++) { // ready: targets make admission predict
            PickDecision d = served(pool, targeted());
            d.prediction().learn(100, 10, 50);
        }
        assertThat(predictor.ready()).isTrue();
        scrapeReads.set(0);

        Scheduling admitted = pool.flowControl().admit(targeted());
        assertThat(admitted).as("admitted at once").isNotNull();
        Placement placement = Placement.place(pool, targeted(), admitted);
        placement.commit();
        placement.finish();

        assertThat(scrapeReads).as("each of the 4 candidates read once: saturation, prediction and pick share them")
                .hasValue(pods.size());
    }

    @Test
    void aSecondProfileRunsForTheSameRequestOnTheSameSnapshotAndTheHandlerNamesThePrimary() {
        idle();
        scrapes.put(pod(3), Scenarios.scrape().waiting(4).kv(0.1).at(now[0]).build());
        List<String> rounds = new ArrayList<>();
        SchedulerProfile decode = SchedulerProfile.builder().name("decode").scorer(prefers(pod(2)), 1)
                .picker(new MaxScorePicker(() -> 0L)).build();
        SchedulerProfile prefill = SchedulerProfile.builder().name("prefill").scorer(prefers(pod(4)), 1)
                .picker(new MaxScorePicker(() -> 0L)).build();
        List<EndpointState> seenByPrefill = new ArrayList<>();
        ProfileHandler decodeThenPrefill = new ProfileHandler() {
            @Override
            public List<SchedulerProfile> next(SchedulingCycle cycle, List<SchedulerProfile> profiles,
                    List<ProfileResult> results) {
                rounds.add(results.stream().map(r -> r.profile() + "->" + r.chosen().endpoint()).toList().toString());
                if (results.size() == 1) {
                    seenByPrefill.addAll(cycle.states());
                }
                return results.size() < profiles.size() ? List.of(profiles.get(results.size())) : List.of();
            }

            @Override
            public ProfileResult primary(SchedulingCycle cycle, List<ProfileResult> results) {
                return results.stream().filter(r -> r.profile().equals("decode")).findFirst().orElseThrow();
            }
        };
        PluginContext pool = PluginContext.forChecking(() -> 0L);
        PluginPolicy policy = new PluginPolicy("p", new SchedulerProfiles.Built(List.of(decode, prefill),
                decodeThenPrefill, pool.registered()), false, null, STALE_AFTER, () -> 1, counted, inFlight, clock,
                SchedulerEvents.NONE, pool.predictor());

        scrapeReads.set(0);
        RequestCycle cycle = policy.begin(InferenceRequest.builder(MODEL).promptText("hi").promptTokensEstimate(1).build(), pods, 0);
        PickDecision decision = cycle.pick().decision();
        List<String> results = cycle.results().stream().map(r -> r.profile() + "->" + r.chosen().endpoint()).toList();
        cycle.commit();

        assertThat(rounds).containsExactly("[]", "[decode->" + pod(2) + "]",
                "[decode->" + pod(2) + ", prefill->" + pod(4) + "]");
        assertThat(results).containsExactly("decode->" + pod(2), "prefill->" + pod(4));
        assertThat(decision.endpoint()).as("the primary: decode's").isEqualTo(pod(2));
        assertThat(decision.reason()).isEqualTo(PickReason.LEAST_LOADED);
        assertThat(seenByPrefill).as("the prefill profile saw the whole snapshot, pod 3's queue included")
                .extracting(EndpointState::waiting).containsExactly(0, 0, 4, 0);
        assertThat(scrapeReads).as("one snapshot for both profiles").hasValue(pods.size());
    }

    /** A scorer that likes only {@code pod}. */
    private static Scorer prefers(Endpoint pod) {
        return (cycle, endpoints, scores) -> {
            for (int i = 0; i < endpoints.size(); i++) {
                scores[i] = endpoints.get(i).endpoint().equals(pod) ? 1 : 0;
            }
        };
    }

    /** Places a request as the request path does and ends it at once: how the predictor is warmed here. */
    private static PickDecision served(ModelPool pool, InferenceRequest request) {
        Placement p = Placement.choose(pool, request);
        p.commit();
        p.finish();
        return p.decision();
    }
}
