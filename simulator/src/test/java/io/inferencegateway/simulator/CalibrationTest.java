package io.inferencegateway.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

/** The simulated 8B/H100 pod lands within ±25% of every published measurement it is held to (the calibration table in docs/benchmarks/routing.md). */
class CalibrationTest {

    @Test
    void simulatorMatchesDesignAnchors() {
        List<Calibration.Row> rows = new Calibration().run();
        assertThat(rows).hasSize(9);
        for (Calibration.Row row : rows) {
            if (Calibration.asserted(row)) {
                assertThat(row.ratio()).as(row.name() + ": " + row.measured() + " " + row.unit() + " vs " + row.anchor())
                        .isBetween(0.75, 1.25);
            }
        }
        assertThat(rows.stream().filter(Calibration::asserted)).hasSize(7);
    }
}
