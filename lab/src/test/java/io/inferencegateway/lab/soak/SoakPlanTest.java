package io.inferencegateway.lab.soak;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

/** The soak's schedule and traffic are functions of the seed, and the schedule keeps the constraints it promises. */
class SoakPlanTest {

    private static final long TEN_MINUTES = 600_000;

    @Test
    void theSameSeedGivesTheSameFaultsAndTrafficAndAnotherSeedDoesNot() {
        assertThat(FaultPlan.generate(42, TEN_MINUTES, 4_000, 6, 2, 10_000))
                .isEqualTo(FaultPlan.generate(42, TEN_MINUTES, 4_000, 6, 2, 10_000))
                .isNotEqualTo(FaultPlan.generate(43, TEN_MINUTES, 4_000, 6, 2, 10_000));
        assertThat(TrafficPlan.generate(42, 8, 60_000)).isEqualTo(TrafficPlan.generate(42, 8, 60_000));
    }

    @Test
    void tenMinutesAtTheDefaultGapHoldMoreThanAHundredFaultsBesidesReloadsAllHealedBeforeTheEnd() {
        List<Fault> faults = FaultPlan.generate(42, TEN_MINUTES, 4_000, 6, 2, 10_000);
        assertThat(faults.stream().filter(f -> f.durationMillis() > 0)).hasSizeGreaterThan(100)
                .allSatisfy(f -> assertThat(f.endMillis()).isLessThanOrEqualTo(TEN_MINUTES - 10_000));
        assertThat(faults.stream().filter(f -> f.kind() == Fault.Kind.RELOAD_INVALID)).isNotEmpty();
        assertThat(faults.get(faults.size() - 1).kind()).isEqualTo(Fault.Kind.RELOAD_VALID);
    }

    @Test
    void atMostTwoListedPodsAreDisabledAtOnceAndAPodHasOneFaultAtATime() {
        for (long seed = 1; seed <= 20; seed++) {
            List<Fault> faults = FaultPlan.generate(seed, TEN_MINUTES, 2_000, 6, 2, 10_000);
            for (Fault f : faults) {
                long disabled = faults.stream().filter(g -> g.kind().disablesPod && g.atMillis() <= f.atMillis()
                        && g.endMillis() > f.atMillis()).count();
                assertThat(disabled).as("seed %d at %s", seed, f).isLessThanOrEqualTo(3);
                assertThat(faults.stream().filter(g -> g != f && g.target() == f.target() && g.kind().name()
                        .startsWith("POD") && f.kind().name().startsWith("POD") && g.atMillis() < f.endMillis()
                        && f.atMillis() < g.endMillis())).as("seed %d: %s overlaps on its pod", seed, f).isEmpty();
            }
        }
    }
}
