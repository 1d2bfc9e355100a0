package io.inferencegateway.scheduling.plugins;

import static io.inferencegateway.scheduling.Scenarios.MODEL;
import static io.inferencegateway.scheduling.Scenarios.pod;
import static io.inferencegateway.scheduling.Scenarios.scrape;
import static io.inferencegateway.scheduling.Scenarios.states;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.domain.LatencyTargets;
import io.inferencegateway.domain.PickReason;
import io.inferencegateway.scheduling.ScriptedRandom;
import io.inferencegateway.scheduling.framework.EndpointState;
import io.inferencegateway.scheduling.framework.SchedulingCycle;
import io.inferencegateway.scheduling.latency.LatencyPredictor;

/**
 * The predicted-time picker on a predictor that has learned nothing yet (its prior costs: 50 ms + 60 ms per thousand
 * uncached prompt tokens + 40 ms per queued request + 20 ms per 32 running + 60 ms per thousand prompt tokens in flight)
 * unless a test teaches it.
 */
class PredictedTimePickerTest {

    private final LatencyPredictor predictor = new LatencyPredictor("p");

    /** Times alone: a miss costs only its own prefill (missWeight 0). */
    private PredictedTimePicker picker(double margin) {
        return new PredictedTimePicker(predictor, margin, 0, 0, 0, new ScriptedRandom());
    }

    private static InferenceRequest prompt(int tokens) {
        return InferenceRequest.builder(MODEL).promptTokensEstimate(tokens).stream(true).build();
    }

    private static SchedulingCycle cycle(InferenceRequest request) {
        return new SchedulingCycle().begin(request, 0);
    }

    @Test
    void aPodPredictedFasterByMoreThanTheMarginWinsOverTheScoresFavourite() {
        List<EndpointState> pods = states(scrape(3, 0, 0), scrape(0, 0, 0)); // ~170 ms against ~50 ms
        SchedulingCycle cycle = cycle(prompt(100));

        assertThat(picker(0.2).pick(cycle, pods, new double[] {9, 1})).isSameAs(pods.get(1));
        assertThat(cycle.pickerReason()).isEqualTo(PickReason.LEAST_LOADED);
    }

    @Test
    void withinTheMarginTheScoresDecideAndThePickerSaysNothing() {
        List<EndpointState> pods = states(scrape(0, 8, 0), scrape(0, 0, 0)); // 5 ms apart on ~55 ms
        SchedulingCycle cycle = cycle(prompt(100));

        assertThat(picker(0.2).pick(cycle, pods, new double[] {9, 1})).isSameAs(pods.get(0));
        assertThat(cycle.pickerReason()).isNull();
        assertThat(picker(0).pick(cycle(prompt(100)), pods, new double[] {9, 1})).as("no margin: the faster")
                .isSameAs(pods.get(1));
    }

    @Test
    void aCachedPromptIsWorthTheQueueItsPodHas() {
        // 4,000 tokens: cold ~290 ms anywhere; on the pod that caches it, two queued requests cost ~130 ms
        List<EndpointState> pods = states(scrape(0, 0, 0), scrape(2, 0, 0), scrape(0, 0, 0));
        pods.get(1).cachedTokens(4_000);
        SchedulingCycle cycle = cycle(prompt(4_000));

        assertThat(picker(0.2).pick(cycle, pods, new double[] {3, 1, 3})).isSameAs(pods.get(1));
        assertThat(cycle.pickerReason()).isEqualTo(PickReason.PREFIX_HIT);

        pods.get(1).cachedTokens(0); // the same queue without the cache is only slower
        assertThat(picker(0.2).pick(cycle(prompt(4_000)), pods, new double[] {3, 1, 3})).isNotSameAs(pods.get(1));
    }

    @Test
    void aMissWeightCountsTheFleetsPrefillOfAMissOnceMore() {
        // 4,000 tokens: ~290 ms cold on the idle pod; on the pod that caches them eight queued requests cost ~370 ms
        List<EndpointState> pods = states(scrape(0, 0, 0), scrape(8, 0, 0));
        pods.get(1).cachedTokens(4_000);
        PredictedTimePicker missWeighted = new PredictedTimePicker(predictor, 0.2, 1, 0, 0, new ScriptedRandom());

        assertThat(picker(0.2).pick(cycle(prompt(4_000)), pods, new double[] {1, 3})).as("by its own time: moves")
                .isSameAs(pods.get(0));
        assertThat(missWeighted.pick(cycle(prompt(4_000)), pods, new double[] {1, 3}))
                .as("the miss costs 290 + 240 ms: stays").isSameAs(pods.get(1));
    }

    @Test
    void aMissAlsoCostsTheRequestsQueuedBehindItOnThePodItGoesTo() {
        // 4,000 tokens on the pod that caches them, behind 20 queued requests: ~850 ms. Cold on an idle pod ~290 ms
        // (+ 240 ms for the miss): moves. Cold behind two queued requests ~370 ms, which would be faster by more than
        // the margin by its own time, but its prefill (240 ms) also delays those who will queue behind it: stays.
        PredictedTimePicker missWeighted = new PredictedTimePicker(predictor, 0.2, 1, 0, 0, new ScriptedRandom());
        List<EndpointState> idle = states(scrape(0, 0, 0), scrape(20, 0, 0));
        List<EndpointState> busy = states(scrape(2, 0, 0), scrape(20, 0, 0));
        idle.get(1).cachedTokens(4_000);
        busy.get(1).cachedTokens(4_000);

        assertThat(missWeighted.pick(cycle(prompt(4_000)), idle, new double[] {1, 3})).isSameAs(idle.get(0));
        assertThat(missWeighted.pick(cycle(prompt(4_000)), busy, new double[] {1, 3})).isSameAs(busy.get(1));
        assertThat(picker(0.2).pick(cycle(prompt(4_000)), busy, new double[] {1, 3})).as("by its own time: moves")
                .isSameAs(busy.get(0));
    }

    @Test
    void promptTokensSentButNotYetComputedCountAsWaitingWork() {
        List<EndpointState> pods = states(scrape(0, 0, 0), scrape(0, 0, 0));
        pods.get(0).prefillingTokens(8_000); // ~480 ms of prefill ahead, though the scrape shows no queue

        assertThat(picker(0.2).pick(cycle(prompt(100)), pods, new double[] {5, 1})).isSameAs(pods.get(1));
    }

    @Test
    void candidatesWithoutFreshMetricsAreTakenOnlyWhenNoneHasThem() {
        List<EndpointState> pods = states(scrape(0, 0, 0), scrape(4, 0, 0));
        List<EndpointState> unread = states(null, null);

        assertThat(unread.get(0).fresh()).isFalse();
        assertThat(picker(0.2).pick(cycle(prompt(100)), unread, new double[] {1, 2})).as("the scores decide")
                .isSameAs(unread.get(1));
        assertThat(picker(0.2).pick(cycle(prompt(100)), pods, new double[] {1, 2})).isSameAs(pods.get(0));
    }

    @Test
    void aSheddableRequestWithATargetIsPackedWhereItStillFitsHalfItsTarget() {
        learnIdlePods(); // ready: the prior's costs confirmed
        // ~50, ~250 and ~850 ms; a 1 s target leaves room up to 500 ms: the 250 ms pod, keeping the idle one free
        List<EndpointState> pods = states(scrape(0, 0, 0), scrape(5, 0, 0), scrape(20, 0, 0));
        InferenceRequest batch = prompt(100).toBuilder().priority(-1).targets(new LatencyTargets(1_000, 0)).build();
        SchedulingCycle cycle = cycle(batch);

        assertThat(picker(0.2).pick(cycle, pods, new double[] {3, 2, 1})).isSameAs(pods.get(1));
        assertThat(cycle.pickerReason()).isEqualTo(PickReason.LATENCY_TARGET);

        InferenceRequest critical = batch.toBuilder().priority(1).build();
        assertThat(picker(0.2).pick(cycle(critical), pods, new double[] {1, 2, 3})).as("critical: the fastest")
                .isSameAs(pods.get(0));
        InferenceRequest tight = batch.toBuilder().targets(new LatencyTargets(80, 0)).build();
        assertThat(picker(0.2).pick(cycle(tight), pods, new double[] {1, 2, 3})).as("nothing fits: the fastest")
                .isSameAs(pods.get(0));
    }

    @Test
    void aTemperatureDrawsByPredictedTime() {
        // times ~50 and ~90 ms: weights 1 and exp(-0.8 / 0.5) = 0.20, so draws below 1 / 1.20 take the faster
        List<EndpointState> pods = states(scrape(0, 0, 0), scrape(1, 0, 0));
        PredictedTimePicker fast = new PredictedTimePicker(predictor, 0.2, 0, 0, 0.5,
                new ScriptedRandom().scriptDoubles(0.80));
        PredictedTimePicker slow = new PredictedTimePicker(predictor, 0.2, 0, 0, 0.5,
                new ScriptedRandom().scriptDoubles(0.86));

        assertThat(fast.pick(cycle(prompt(0)), pods, new double[] {0, 9})).isSameAs(pods.get(0));
        assertThat(slow.pick(cycle(prompt(0)), pods, new double[] {9, 0})).isSameAs(pods.get(1));
    }

    @Test
    void itsNameCarriesItsParametersUnlessTheyAreTheDefaults() {
        assertThat(new PredictedTimePicker(predictor, PredictedTimePicker.DEFAULT_MARGIN,
                PredictedTimePicker.DEFAULT_MISS_WEIGHT, 0, 0, new ScriptedRandom())).hasToString("predicted-time-picker");
        assertThat(picker(0.3)).hasToString(
                "predicted-time-picker{margin=0.3, missWeight=0.0, decodeWeight=0.0, temperature=0.0}");
    }

    /** Teaches the predictor that an idle pod answers in 50 ms, until it is ready. */
    private void learnIdlePods() {
        double[] x = new double[LatencyPredictor.FEATURES];
        for (int i = 0; i < LatencyPredictor.MIN_SAMPLES; i++) {
            LatencyPredictor.features(x, 0, 0, 0, 0, 0, false);
            predictor.prediction(pod(1), x.clone(), prompt(0), 0).learn(50, 10, 100);
        }
        assertThat(predictor.ready()).isTrue();
    }
}
