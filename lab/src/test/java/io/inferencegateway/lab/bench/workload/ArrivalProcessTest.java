package io.inferencegateway.lab.bench.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Rates and shapes of the arrival processes. Fixed seeds: the checks are deterministic, not statistical luck. */
class ArrivalProcessTest {

    private static final int SAMPLES = 40_000;

    @ParameterizedTest(name = "poisson at {0} req/s")
    @CsvSource({"1", "25", "400"})
    void poissonHasTheMeanRateAndExponentialGaps(double rate) {
        ArrivalProcess poisson = new PoissonArrivals(rate);
        SplittableRandom rng = new SplittableRandom(7);
        long t = 0;
        int longerThanMean = 0;
        long meanGap = Math.round(1e9 / rate);
        for (int i = 0; i < SAMPLES; i++) {
            long next = poisson.nextArrival(t, rng);
            assertThat(next).isGreaterThan(t);
            if (next - t > meanGap) {
                longerThanMean++;
            }
            t = next;
        }
        double measuredRate = SAMPLES / (t / 1e9);
        // the standard error of the mean gap is 0.5% at 40,000 samples
        assertThat(measuredRate).isCloseTo(rate, within(rate * 0.03));
        // exponential gaps: P(gap > mean) = 1/e
        assertThat((double) longerThanMean / SAMPLES).isCloseTo(Math.exp(-1), within(0.02));
    }

    @Test
    void onOffHasTheMeanRateOverallAndTheBurstRateInBursts() {
        OnOffArrivals bursty = new OnOffArrivals(20, 3, 2, 6);
        assertThat(bursty.onRate()).isEqualTo(60);
        assertThat(bursty.offRate()).isCloseTo(20.0 / 3, within(1e-9));
        SplittableRandom rng = new SplittableRandom(11);
        long t = 0;
        int inBurst = 0;
        int total = 0;
        long horizon = 4000L * 1_000_000_000L; // 500 cycles
        while ((t = bursty.nextArrival(t, rng)) < horizon) {
            total++;
            if (bursty.inBurst(t)) {
                inBurst++;
            }
        }
        double seconds = horizon / 1e9;
        assertThat(total / seconds).isCloseTo(20, within(0.6));
        // bursts are a quarter of the time and carry 60/(60+3·6.67) = 3/4 of the arrivals
        assertThat(inBurst / (seconds / 4)).isCloseTo(60, within(2.0));
        assertThat((total - inBurst) / (seconds * 3 / 4)).isCloseTo(20.0 / 3, within(0.5));
    }

    @Test
    void onOffWithSilentLullsSendsNothingBetweenBursts() {
        OnOffArrivals bursts = new OnOffArrivals(10, 4, 1, 3);
        assertThat(bursts.offRate()).isZero();
        SplittableRandom rng = new SplittableRandom(3);
        long t = 0;
        for (int i = 0; i < 5_000; i++) {
            t = bursts.nextArrival(t, rng);
            assertThat(bursts.inBurst(t)).isTrue();
        }
    }

    @Test
    void withMeanRateKeepsTheShape() {
        OnOffArrivals scaled = (OnOffArrivals) new OnOffArrivals(1, 3, 2, 6).withMeanRate(30);
        assertThat(scaled).isEqualTo(new OnOffArrivals(30, 3, 2, 6));
        assertThat(new PoissonArrivals(1).withMeanRate(5).meanRate()).isEqualTo(5);
    }

    @Test
    void impossibleShapesAreRejected() {
        assertThatThrownBy(() -> new OnOffArrivals(10, 5, 1, 3)).hasMessageContaining("burstFactor");
        assertThatThrownBy(() -> new PoissonArrivals(0)).hasMessageContaining("rate");
    }
}
