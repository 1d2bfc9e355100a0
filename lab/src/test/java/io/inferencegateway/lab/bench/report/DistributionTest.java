package io.inferencegateway.lab.bench.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.LongStream;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class DistributionTest {

    static Stream<Arguments> percentiles() {
        long[] oneToTen = LongStream.rangeClosed(1, 10).toArray();
        long[] oneToHundred = LongStream.rangeClosed(1, 100).toArray();
        long[] shuffled = {9, 2, 7, 4, 10, 1, 8, 3, 6, 5};
        return Stream.of(
                Arguments.of("p50 of 1..10", oneToTen, 50.0, 5L),
                Arguments.of("p90 of 1..10", oneToTen, 90.0, 9L),
                Arguments.of("p99 of 1..10 is the max", oneToTen, 99.0, 10L),
                Arguments.of("p100 of 1..10", oneToTen, 100.0, 10L),
                Arguments.of("p1 of 1..10 is the min", oneToTen, 1.0, 1L),
                Arguments.of("p50 of 1..100", oneToHundred, 50.0, 50L),
                Arguments.of("p99 of 1..100", oneToHundred, 99.0, 99L),
                Arguments.of("p99.9 of 1..100", oneToHundred, 99.9, 100L),
                Arguments.of("order of input does not matter", shuffled, 90.0, 9L),
                Arguments.of("single sample", new long[] {42}, 50.0, 42L),
                Arguments.of("ties", new long[] {5, 5, 5, 9}, 75.0, 5L));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("percentiles")
    void nearestRankPercentiles(String name, long[] samples, double p, long expected) {
        assertThat(Distribution.of(samples).percentile(p)).isEqualTo(expected);
    }

    @Test
    void meanCountAndCdf() {
        Distribution d = Distribution.of(new long[] {4, 1, 3, 2, 2});
        assertThat(d.count()).isEqualTo(5);
        assertThat(d.mean()).isEqualTo(2.4);
        assertThat(d.fractionAtOrBelow(0)).isZero();
        assertThat(d.fractionAtOrBelow(2)).isEqualTo(0.6);
        assertThat(d.fractionAtOrBelow(3)).isEqualTo(0.8);
        assertThat(d.fractionAtOrBelow(100)).isEqualTo(1.0);
        assertThat(d.sorted()).containsExactly(1, 2, 2, 3, 4);
    }

    @Test
    void theInputIsNotModified() {
        long[] samples = {3, 1, 2};
        Distribution.of(samples);
        assertThat(samples).containsExactly(3, 1, 2);
    }

    @Test
    void emptyHasNoPercentilesAndNaNSummary() {
        Distribution empty = Distribution.of(new long[0]);
        assertThat(empty.mean()).isNaN();
        assertThatThrownBy(() -> empty.percentile(50)).isInstanceOf(IllegalStateException.class);
        LatencySummary summary = LatencySummary.of(empty);
        assertThat(summary.count()).isZero();
        assertThat(summary.p99Ms()).isNaN();
    }

    @Test
    void summaryIsInMilliseconds() {
        long[] nanos = LongStream.rangeClosed(1, 100).map(i -> i * 1_000_000L).toArray();
        assertThat(LatencySummary.of(Distribution.of(nanos)))
                .isEqualTo(new LatencySummary(100, 50.5, 50, 90, 99, 100));
    }
}
