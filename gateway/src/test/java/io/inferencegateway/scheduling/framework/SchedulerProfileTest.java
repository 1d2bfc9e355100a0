package io.inferencegateway.scheduling.framework;

import static io.inferencegateway.scheduling.Scenarios.base;
import static io.inferencegateway.scheduling.Scenarios.cycle;
import static io.inferencegateway.scheduling.Scenarios.scrape;
import static io.inferencegateway.scheduling.Scenarios.states;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.inferencegateway.scheduling.ScriptedRandom;
import io.inferencegateway.scheduling.plugins.MaxScorePicker;

class SchedulerProfileTest {

    private final List<EndpointState> three = states(scrape(0, 0, 0), scrape(0, 0, 0), scrape(0, 0, 0));

    /** A scorer that writes fixed raw scores. */
    private static Scorer fixed(double... raw) {
        return (cycle, endpoints, scores) -> {
            for (int i = 0; i < endpoints.size(); i++) {
                scores[i] = raw[i];
            }
        };
    }

    /** A picker that records the totals it was given and takes the first endpoint. */
    private static final class Recording implements Picker {
        double[] totals;

        @Override
        public EndpointState pick(SchedulingCycle cycle, List<EndpointState> endpoints, double[] t) {
            totals = java.util.Arrays.copyOf(t, endpoints.size());
            return endpoints.get(0);
        }
    }

    static Stream<Arguments> sums() {
        return Stream.of(
                Arguments.of("2×[1, .5, 0] + 3×[0, 1, .5] = [2, 4, 1.5]", new double[] {1, .5, 0},
                        new double[] {0, 1, .5}, new double[] {2, 4, 1.5}),
                Arguments.of("above 1 counts as 1: 2×1 + 3×1 = 5", new double[] {7, 1, 1}, new double[] {1, 1, 1},
                        new double[] {5, 5, 5}),
                Arguments.of("negative counts as 0: 2×0 + 3×.5 = 1.5", new double[] {-4, 0, 0},
                        new double[] {.5, 0, 0}, new double[] {1.5, 0, 0}),
                Arguments.of("NaN counts as 0: 2×0 + 3×1 = 3", new double[] {Double.NaN, 0, 0},
                        new double[] {1, 0, 0}, new double[] {3, 0, 0}));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("sums")
    void sumsWeightTimesClampedScore(String scenario, double[] first, double[] second, double[] expected) {
        Recording picker = new Recording();
        SchedulerProfile.builder().scorer(fixed(first), 2).scorer(fixed(second), 3).picker(picker).build()
                .run(cycle(base("")), three);
        assertThat(picker.totals).containsExactly(expected, within(1e-12));
    }

    @Test
    void scoresStartAtZeroForEveryScorer() {
        Scorer writesOnlyTheFirst = (cycle, endpoints, scores) -> scores[0] = 1;
        Recording picker = new Recording();
        SchedulerProfile.builder().scorer(fixed(1, 1, 1), 1).scorer(writesOnlyTheFirst, 1).picker(picker).build()
                .run(cycle(base("")), three);
        assertThat(picker.totals).as("the second scorer does not inherit the first one's scores")
                .containsExactly(2, 1, 1);
    }

    @Test
    void aZeroWeightScorerIsNotRun() {
        Scorer mustNotRun = (cycle, endpoints, scores) -> {
            throw new AssertionError("weight 0 scorer ran");
        };
        SchedulerProfile p = SchedulerProfile.builder().scorer(fixed(0, 1, 0), 1).scorer(mustNotRun, 0)
                .picker(new MaxScorePicker(new ScriptedRandom())).build();
        assertThat(p.run(cycle(base("")), three)).isSameAs(three.get(1));
        assertThat(p.scorers()).hasSize(1);
    }

    @Test
    void filtersRunInOrderEachSeeingTheLastOnesOutput() {
        List<Integer> seenSizes = new ArrayList<>();
        Filter dropFirst = (cycle, endpoints) -> {
            seenSizes.add(endpoints.size());
            return endpoints.subList(1, endpoints.size());
        };
        Recording picker = new Recording();
        EndpointState chosen = SchedulerProfile.builder().filter(dropFirst).filter(dropFirst).picker(picker).build()
                .run(cycle(base("")), three);
        assertThat(seenSizes).containsExactly(3, 2);
        assertThat(chosen).isSameAs(three.get(2));
    }

    @Test
    void aFilterThatWouldRemoveEveryoneRemovesNobody() {
        Filter dropAll = (cycle, endpoints) -> List.of();
        Filter dropFirst = (cycle, endpoints) -> endpoints.subList(1, endpoints.size());
        Recording picker = new Recording();
        EndpointState chosen = SchedulerProfile.builder().filter(dropFirst).filter(dropAll).picker(picker).build()
                .run(cycle(base("")), three);
        assertThat(picker.totals).as("two endpoints left after fail open").hasSize(2);
        assertThat(chosen).isSameAs(three.get(1));
    }

    @Test
    void tiesAreBrokenByTheInjectedRandom() {
        SchedulerProfile p = SchedulerProfile.builder().scorer(fixed(1, 0, 1), 1)
                .picker(new MaxScorePicker(new ScriptedRandom().scriptInts(1))).build();
        assertThat(p.run(cycle(base("")), three)).as("second of the tied #0 and #2").isSameAs(three.get(2));
    }

    @Test
    void rejectsNegativeWeightsAndAMissingPicker() {
        assertThatThrownBy(() -> SchedulerProfile.builder().scorer(fixed(), -1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SchedulerProfile.builder().build()).isInstanceOf(NullPointerException.class);
    }
}
