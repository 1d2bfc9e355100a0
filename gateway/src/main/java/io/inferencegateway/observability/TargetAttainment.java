package io.inferencegateway.observability;

import java.util.Arrays;
import java.util.List;

import io.inferencegateway.domain.Priority;

/**
 * How a pool's requests with latency targets fared lately, as the fleet page shows it: per priority band, those that
 * met their targets and those that missed, in per-second buckets over the last {@link PodActivity#WINDOW_SECONDS}.
 * Written in O(1) under its own lock; a reader sums the window.
 */
final class TargetAttainment {

    /** The bands, in the page's order; a band's index is its row in the arrays. */
    static final List<String> BANDS = List.of(Priority.band(Priority.CRITICAL), Priority.band(Priority.STANDARD),
            Priority.band(Priority.SHEDDABLE));
    private static final int WINDOW = PodActivity.WINDOW_SECONDS;

    private final long[][] second = new long[BANDS.size()][WINDOW];
    private final int[][] attained = new int[BANDS.size()][WINDOW];
    private final int[][] missed = new int[BANDS.size()][WINDOW];

    TargetAttainment() {
        for (long[] s : second) {
            Arrays.fill(s, Long.MIN_VALUE);
        }
    }

    synchronized void judged(long now, int priority, boolean met) {
        int band = BANDS.indexOf(Priority.band(priority));
        int i = (int) Math.floorMod(now, WINDOW);
        if (second[band][i] != now) {
            second[band][i] = now;
            attained[band][i] = 0;
            missed[band][i] = 0;
        }
        if (met) {
            attained[band][i]++;
        } else {
            missed[band][i]++;
        }
    }

    /** Each band's requests judged within the window before {@code now}, in {@link #BANDS} order. */
    synchronized List<FleetSnapshot.Attainment> window(long now) {
        FleetSnapshot.Attainment[] out = new FleetSnapshot.Attainment[BANDS.size()];
        for (int band = 0; band < out.length; band++) {
            long met = 0;
            long not = 0;
            for (int i = 0; i < WINDOW; i++) {
                if (now - second[band][i] < WINDOW) {
                    met += attained[band][i];
                    not += missed[band][i];
                }
            }
            out[band] = new FleetSnapshot.Attainment(BANDS.get(band), met, not,
                    met + not == 0 ? null : met / (double) (met + not));
        }
        return List.of(out);
    }
}
