package io.inferencegateway.scheduling.latency;

import static io.inferencegateway.scheduling.Scenarios.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.inferencegateway.domain.Endpoint;

/**
 * The ranking's concordance as a table of pairs: which two measurements are compared (different pods, picked within a
 * second, the same thing measured) and how a pair counts (in order, reversed, a tie in prediction).
 */
class RankingConcordanceTest {

    static final long MS = 1_000_000;

    /** One measurement: pod, pick time, kind, predicted and measured milliseconds. */
    record Measured(Endpoint pod, long pickedNanos, int kind, double predicted, double measured) {
        void into(RankingConcordance c) {
            c.add(pod, pickedNanos, kind, predicted, measured);
        }
    }

    static Measured on(int pod, long pickedMillis, double predicted, double measured) {
        return new Measured(pod(pod), pickedMillis * MS, 0, predicted, measured);
    }

    static Stream<Arguments> pairs() {
        return Stream.of(
                Arguments.of("pod 2 predicted slower and was", on(1, 0, 100, 90), on(2, 10, 200, 250), 1.0),
                Arguments.of("pod 2 predicted slower and was faster", on(1, 0, 100, 90), on(2, 10, 200, 80), 0.0),
                Arguments.of("the same prediction: a coin toss", on(1, 0, 100, 90), on(2, 10, 100, 250), 0.5),
                Arguments.of("the same measurement: no order to keep", on(1, 0, 100, 90), on(2, 10, 200, 90),
                        Double.NaN),
                Arguments.of("the same pod: not a choice between pods", on(1, 0, 100, 90), on(1, 10, 200, 250),
                        Double.NaN),
                Arguments.of("picked more than a second apart: other loads", on(1, 0, 100, 90),
                        on(2, 1_001, 200, 250), Double.NaN),
                Arguments.of("picked a second apart, before or after", on(1, 1_000, 100, 90), on(2, 0, 200, 250),
                        1.0),
                Arguments.of("a first token and a whole body: not the same thing", on(1, 0, 100, 90),
                        new Measured(pod(2), 10 * MS, 16, 200, 250), Double.NaN),
                Arguments.of("whole bodies of as many tokens", new Measured(pod(1), 0, 16, 300, 320),
                        new Measured(pod(2), 10 * MS, 16, 200, 250), 1.0),
                Arguments.of("whole bodies of different lengths", new Measured(pod(1), 0, 16, 300, 320),
                        new Measured(pod(2), 10 * MS, 64, 900, 950), Double.NaN));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("pairs")
    void aPairCountsAsItsOrderSays(String name, Measured first, Measured second, double share) {
        RankingConcordance c = new RankingConcordance();
        first.into(c);
        second.into(c);
        if (Double.isNaN(share)) {
            assertThat(c.share()).isNaN();
            assertThat(c.compared()).isZero();
        } else {
            assertThat(c.share()).isEqualTo(share);
            assertThat(c.compared()).isEqualTo(1);
        }
    }

    @Test
    void itIsTheShareOfPairsInOrderOverEveryPodPicked() {
        RankingConcordance c = new RankingConcordance();
        on(1, 0, 100, 100).into(c);
        on(2, 1, 200, 200).into(c);
        on(3, 2, 300, 150).into(c); // in order with pod 1, reversed with pod 2
        assertThat(c.compared()).isEqualTo(3);
        assertThat(c.share()).as("the first pair a little older").isCloseTo(2 / 3.0, within(1e-3));
    }

    @Test
    void predictionsThatSayNothingOfTheMeasurementsScoreACoinToss() {
        SplittableRandom random = new SplittableRandom(3);
        RankingConcordance c = new RankingConcordance();
        for (int i = 0; i < 5_000; i++) {
            on(1 + i % 8, i, random.nextDouble(50, 500), random.nextDouble(50, 500)).into(c);
        }
        assertThat(c.share()).isCloseTo(0.5, within(0.05));
    }

    @Test
    void itComparesWithTheLastMeasurementsOnlyAndFollowsAPredictorThatTurns() {
        RankingConcordance c = new RankingConcordance();
        for (int i = 0; i < 2_000; i++) { // every pair in order
            on(1 + i % 4, i, i % 4, i % 4).into(c);
        }
        assertThat(c.share()).isEqualTo(1.0);
        long before = c.compared();
        on(5, 2_000, 1, 1).into(c);
        assertThat(c.compared() - before).as("one ring's worth at most").isLessThanOrEqualTo(RankingConcordance.RING);

        for (int i = 0; i < 2_000; i++) { // now every pair reversed
            on(1 + i % 4, 10_000 + i, i % 4, 3 - i % 4).into(c);
        }
        assertThat(c.share()).as("the window has moved on").isLessThan(0.01);
    }
}
