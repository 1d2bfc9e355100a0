package io.inferencegateway.domain;

/**
 * What a request needs to be served in time: its time-to-first-token and time-per-output-token targets, in
 * milliseconds, 0 for "none". From the request's {@code x-slo-ttft-ms} / {@code x-slo-tpot-ms} headers, else its
 * tenant's, else its model's or adapter's in the pool's config, field by field (docs/slo.md).
 *
 * <p>A request meets its targets when its first token came within {@code ttftMillis} of its arrival and its output
 * tokens after that came {@code tpotMillis} apart on average. A response that is not streamed has one "token" as far
 * as the client can tell: its whole body, so its time to that body is its TTFT and it has no TPOT to miss.
 */
public record LatencyTargets(long ttftMillis, long tpotMillis) {

    public static final LatencyTargets NONE = new LatencyTargets(0, 0);
    /** The largest target taken (an hour): a header must not turn into an overflow. */
    public static final long MAX_MILLIS = 3_600_000;

    public LatencyTargets {
        if (ttftMillis < 0 || tpotMillis < 0 || ttftMillis > MAX_MILLIS || tpotMillis > MAX_MILLIS) {
            throw new IllegalArgumentException("targets must be 0.." + MAX_MILLIS + " ms, got " + ttftMillis + "/"
                    + tpotMillis);
        }
    }

    public boolean any() {
        return ttftMillis > 0 || tpotMillis > 0;
    }

    /** These targets, each one that is unset taken from {@code fallback}. */
    public LatencyTargets orElse(LatencyTargets fallback) {
        if (fallback == null || (ttftMillis > 0 && tpotMillis > 0) || !fallback.any()) {
            return this;
        }
        return new LatencyTargets(ttftMillis > 0 ? ttftMillis : fallback.ttftMillis,
                tpotMillis > 0 ? tpotMillis : fallback.tpotMillis);
    }

    /**
     * A header's target: a whole number of milliseconds, 1.. {@link #MAX_MILLIS}; 0 when the header is absent.
     *
     * @throws IllegalArgumentException with a message for the client when it is anything else
     */
    public static long parseMillis(String header, CharSequence value) {
        if (value == null) {
            return 0;
        }
        String text = value.toString().trim();
        long ms;
        try {
            ms = Long.parseLong(text);
        } catch (NumberFormatException e) {
            ms = -1;
        }
        if (ms < 1 || ms > MAX_MILLIS) {
            throw new IllegalArgumentException("Header " + header + " must be a whole number of milliseconds, 1.."
                    + MAX_MILLIS + ", got '" + text + "'");
        }
        return ms;
    }

    @Override
    public String toString() {
        return "ttft " + (ttftMillis > 0 ? ttftMillis + "ms" : "-") + ", tpot " + (tpotMillis > 0 ? tpotMillis + "ms" : "-");
    }
}
