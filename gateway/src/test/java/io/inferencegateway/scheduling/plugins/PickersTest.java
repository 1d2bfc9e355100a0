package io.inferencegateway.scheduling.plugins;

import static io.inferencegateway.scheduling.Scenarios.scrape;
import static io.inferencegateway.scheduling.Scenarios.states;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.inferencegateway.scheduling.ScriptedRandom;
import io.inferencegateway.scheduling.framework.EndpointState;
import io.inferencegateway.scheduling.framework.SchedulingCycle;

class PickersTest {

    private static final List<EndpointState> FOUR = states(scrape(0, 0, 0), scrape(0, 0, 0), scrape(0, 0, 0),
            scrape(0, 0, 0));
    private static final SchedulingCycle CYCLE = new SchedulingCycle();

    static Stream<Arguments> maxScore() {
        return Stream.of(
                Arguments.of("a single maximum: no random draw", new double[] {1, 5, 3, 2}, new int[] {}, 1),
                Arguments.of("tie of #0 and #2, random says the 2nd tie", new double[] {4, 1, 4, 0}, new int[] {1}, 2),
                Arguments.of("tie of #0 and #2, random says the 1st tie", new double[] {4, 1, 4, 0}, new int[] {0}, 0),
                Arguments.of("four-way tie: random 3 is the last", new double[] {2, 2, 2, 2}, new int[] {3}, 3),
                Arguments.of("1e-12 apart is a tie (rounding), random says the 2nd", new double[] {0, 3.0,
                        3.0 - 1e-12, 0}, new int[] {1}, 2),
                Arguments.of("1e-6 apart is not a tie", new double[] {0, 3.0, 3.0 - 1e-6, 0}, new int[] {}, 1),
                Arguments.of("all negative: still the largest", new double[] {-3, -1, -2, -5}, new int[] {}, 1));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("maxScore")
    void maxScorePicker(String scenario, double[] totals, int[] draws, int expected) {
        ScriptedRandom random = new ScriptedRandom().scriptInts(draws);
        assertThat(new MaxScorePicker(random).pick(CYCLE, FOUR, totals)).isSameAs(FOUR.get(expected));
        assertThat(random.draws()).isEqualTo(draws.length);
    }

    @Test
    void maxScorePickerIgnoresTotalsBeyondTheList() {
        List<EndpointState> two = FOUR.subList(0, 2);
        assertThat(new MaxScorePicker(new ScriptedRandom()).pick(CYCLE, two, new double[] {1, 2, 99, 99}))
                .isSameAs(two.get(1));
    }

    static Stream<Arguments> weighted() {
        return Stream.of(
                // totals 1,3,0,4: sum 8; cumulative edges at 1, 4, 4, 8
                Arguments.of("r=0.10·8=0.8 falls in #0's [0,1)", new double[] {1, 3, 0, 4}, 0.10, 0),
                Arguments.of("r=0.20·8=1.6 falls in #1's [1,4)", new double[] {1, 3, 0, 4}, 0.20, 1),
                Arguments.of("r=0.50·8=4.0 skips #2 (weight 0) into #3's [4,8)", new double[] {1, 3, 0, 4}, 0.50, 3),
                Arguments.of("r=0.999·8 is the last positive one", new double[] {1, 3, 0, 4}, 0.999, 3),
                Arguments.of("negative totals count as 0: r=0.5·2 lands in #3", new double[] {-5, 0, 1, 1}, 0.5, 3));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("weighted")
    void weightedRandomPicker(String scenario, double[] totals, double r, int expected) {
        ScriptedRandom random = new ScriptedRandom().scriptDoubles(r);
        assertThat(new WeightedRandomPicker(random).pick(CYCLE, FOUR, totals)).isSameAs(FOUR.get(expected));
    }

    @Test
    void weightedRandomPickerIsUniformWhenAllTotalsAreZero() {
        ScriptedRandom random = new ScriptedRandom().scriptInts(2);
        assertThat(new WeightedRandomPicker(random).pick(CYCLE, FOUR, new double[] {0, 0, 0, 0})).isSameAs(FOUR.get(2));
    }
}
