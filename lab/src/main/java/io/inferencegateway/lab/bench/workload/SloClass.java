package io.inferencegateway.lab.bench.workload;

import java.time.Duration;

/**
 * The latency class a request belongs to: a name for reports and the targets its client holds it to, in
 * simulated time like every other duration of the bench (the load generator converts them to wall time for
 * the {@code x-slo-ttft-ms} and {@code x-slo-tpot-ms} headers, since the gateway measures wall time).
 *
 * @param name  the class, e.g. {@code interactive}; empty for {@link #NONE}
 * @param ttft  time-to-first-token target; zero for none
 * @param tpot  time-per-output-token target; zero for none
 */
public record SloClass(String name, Duration ttft, Duration tpot) {

    /** A request without targets: sends no SLO header and is left out of the attainment report. */
    public static final SloClass NONE = new SloClass("", Duration.ZERO, Duration.ZERO);

    public SloClass {
        if (ttft.isNegative() || tpot.isNegative()) {
            throw new IllegalArgumentException("latency targets cannot be negative");
        }
        if (name == null || name.isBlank() != (ttft.isZero() && tpot.isZero())) {
            throw new IllegalArgumentException("a class with targets needs a name, and only one with targets has one");
        }
    }

    /** A class with a TTFT target only. */
    public static SloClass ttft(String name, Duration ttft) {
        return new SloClass(name, ttft, Duration.ZERO);
    }

    public boolean isNone() {
        return name.isEmpty();
    }

    public boolean hasTtftTarget() {
        return !ttft.isZero();
    }

    public boolean hasTpotTarget() {
        return !tpot.isZero();
    }

    /** "TTFT ≤ 500 ms, TPOT ≤ 50 ms", for reports. */
    public String describeTargets() {
        String ttftPart = hasTtftTarget() ? "TTFT ≤ " + human(ttft) : "";
        String tpotPart = hasTpotTarget() ? "TPOT ≤ " + human(tpot) : "";
        return ttftPart.isEmpty() || tpotPart.isEmpty() ? ttftPart + tpotPart : ttftPart + ", " + tpotPart;
    }

    private static String human(Duration d) {
        long ms = d.toMillis();
        return ms >= 1000 && ms % 1000 == 0 ? ms / 1000 + " s" : ms + " ms";
    }
}
