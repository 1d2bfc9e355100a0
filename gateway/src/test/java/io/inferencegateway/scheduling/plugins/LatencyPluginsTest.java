package io.inferencegateway.scheduling.plugins;

import static io.inferencegateway.scheduling.Scenarios.cycle;
import static io.inferencegateway.scheduling.Scenarios.scrape;
import static io.inferencegateway.scheduling.Scenarios.states;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.domain.LatencyTargets;
import io.inferencegateway.domain.PickReason;
import io.inferencegateway.domain.Priority;
import io.inferencegateway.scheduling.framework.EndpointState;
import io.inferencegateway.scheduling.framework.SchedulerProfile;
import io.inferencegateway.scheduling.framework.SchedulingCycle;

/** The latency target filter and the latency scorer, on states whose prediction is set by hand. */
class LatencyPluginsTest {

    static final LatencyTargets INTERACTIVE = new LatencyTargets(500, 50);

    static InferenceRequest request(int priority, LatencyTargets targets) {
        return InferenceRequest.builder("m").promptTokensEstimate(100).stream(true).maxTokens(64).priority(priority)
                .targets(targets).build();
    }

    /** Three idle pods whose predicted latency over the target is 0.4, 0.9 and 1.6 (NaN: not predicted). */
    static List<EndpointState> predicted(double... ratios) {
        List<EndpointState> states = states(scrape(0, 0, 0.1), scrape(0, 0, 0.1), scrape(0, 0, 0.1));
        for (int i = 0; i < ratios.length; i++) {
            states.get(i).predicted(ratios[i] * 500, 10, ratios[i]);
        }
        return states;
    }

    @Test
    void theFilterKeepsThePodsPredictedInTime() {
        List<EndpointState> all = predicted(0.4, 0.9, 1.6);
        SchedulingCycle cycle = cycle(request(Priority.STANDARD, INTERACTIVE));
        assertThat(new LatencyTargetFilter().filter(cycle, all)).containsExactly(all.get(0), all.get(1));
    }

    @Test
    void whenNoPodIsInTimeTheFilterKeepsTheClosest() {
        List<EndpointState> all = predicted(1.9, 1.2, 3.0);
        SchedulingCycle cycle = cycle(request(Priority.CRITICAL, INTERACTIVE));
        assertThat(new LatencyTargetFilter().filter(cycle, all)).containsExactly(all.get(1));
    }

    @Test
    void withoutPredictionsTheFilterPassesEverything() {
        List<EndpointState> all = predicted(); // no targets, or the predictor still learns: NaN everywhere
        assertThat(new LatencyTargetFilter().filter(cycle(request(0, LatencyTargets.NONE)), all)).isSameAs(all);
    }

    @Test
    void theScorerGivesHeadroomOrPacks() {
        List<EndpointState> all = predicted(0.4, 0.9, 1.6);
        double[] headroom = scores(LatencyScorer.HEADROOM, Priority.STANDARD, all);
        assertThat(headroom[0]).isCloseTo(0.6, within(1e-9));
        assertThat(headroom[1]).isCloseTo(0.1, within(1e-9));
        assertThat(headroom[2]).as("late: nothing").isZero();
        double[] pack = scores(LatencyScorer.PACK, Priority.STANDARD, all);
        assertThat(pack[1]).as("the pod that meets it with least to spare").isGreaterThan(pack[0]);
        assertThat(pack[2]).isZero();
    }

    @Test
    void byPriorityPacksSheddableRequestsAndGivesTheOthersHeadroom() {
        List<EndpointState> all = predicted(0.4, 0.9);
        double[] batch = scores(LatencyScorer.BY_PRIORITY, Priority.SHEDDABLE, all);
        double[] chat = scores(LatencyScorer.BY_PRIORITY, Priority.CRITICAL, all);
        assertThat(batch[1]).isGreaterThan(batch[0]);
        assertThat(chat[0]).isGreaterThan(chat[1]);
    }

    @Test
    void aRequestWithoutTargetsScoresNothing() {
        List<EndpointState> all = predicted(0.4, 0.9);
        double[] scores = new double[3];
        new LatencyScorer(LatencyScorer.HEADROOM).score(cycle(request(0, LatencyTargets.NONE)), all, scores);
        assertThat(scores).containsOnly(0.0);
    }

    @Test
    void inAProfileTheOnlyPodInTimeWinsAndSaysWhy() {
        List<EndpointState> all = predicted(1.4, 0.8, 2.0);
        SchedulerProfile profile = SchedulerProfile.builder().filter(new LatencyTargetFilter())
                .scorer(LoadScorer.queue(), 2).scorer(new LatencyScorer(LatencyScorer.BY_PRIORITY), 2)
                .picker(new MaxScorePicker()).build();
        SchedulingCycle cycle = cycle(request(Priority.STANDARD, INTERACTIVE));
        assertThat(profile.run(cycle, all)).isSameAs(all.get(1));
        assertThat(cycle.reason()).isEqualTo(PickReason.LATENCY_TARGET);
        assertThat(cycle.outcomeOf(0)).isEqualTo(LatencyTargetFilter.PREDICTED_LATE);
        assertThat(cycle.endpointsOf(0)).isEqualTo(2);
    }

    private static double[] scores(String mode, int priority, List<EndpointState> states) {
        double[] scores = new double[states.size()];
        new LatencyScorer(mode).score(cycle(request(priority, INTERACTIVE)), states, scores);
        return scores;
    }
}
