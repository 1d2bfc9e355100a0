package io.inferencegateway.rollout;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One side's numbers in one step of a rollout: requests, errors, refusals and the TTFT and TPOT bucket counts
 * ({@link LatencyBuckets}). Immutable; tallies of several replicas or intervals add up with {@link #plus}.
 *
 * @param requests the version's requests that ended, except those refused for the caller's own sake
 * @param errors   of them, those that failed: a 5xx the client saw (other than 503), or a response that broke off
 * @param refusals of them, those the version could not take: 429 or 503 from its model server, or the gateway's
 *                 own 429/503 because its pods were saturated or none was there
 */
public record Tally(long requests, long errors, long refusals, long[] ttft, long[] tpot) {

    public static final Tally EMPTY = new Tally(0, 0, 0, new long[LatencyBuckets.COUNT],
            new long[LatencyBuckets.COUNT]);

    public Tally plus(Tally o) {
        long[] t = ttft.clone();
        long[] p = tpot.clone();
        for (int i = 0; i < t.length; i++) {
            t[i] += o.ttft[i];
            p[i] += o.tpot[i];
        }
        return new Tally(requests + o.requests, errors + o.errors, refusals + o.refusals, t, p);
    }

    public boolean isEmpty() {
        return requests == 0 && errors == 0 && refusals == 0 && samples(ttft) == 0 && samples(tpot) == 0;
    }

    public double errorRate() {
        return requests == 0 ? 0 : (double) errors / requests;
    }

    public double refusalRate() {
        return requests == 0 ? 0 : (double) refusals / requests;
    }

    /** Requests with a time to first token (those served). */
    public long ttftSamples() {
        return samples(ttft);
    }

    /** Streams with a time per output token (those of two tokens or more). */
    public long tpotSamples() {
        return samples(tpot);
    }

    public double ttftP90() {
        return LatencyBuckets.p90(ttft);
    }

    public double tpotP90() {
        return LatencyBuckets.p90(tpot);
    }

    private static long samples(long[] counts) {
        long n = 0;
        for (long c : counts) {
            n += c;
        }
        return n;
    }

    /** The tally as Redis hash fields: n, e, r, t&lt;bucket&gt;, p&lt;bucket&gt;; zero counts left out. */
    Map<String, Long> fields() {
        Map<String, Long> f = new HashMap<>();
        put(f, "n", requests);
        put(f, "e", errors);
        put(f, "r", refusals);
        for (int i = 0; i < ttft.length; i++) {
            put(f, "t" + i, ttft[i]);
            put(f, "p" + i, tpot[i]);
        }
        return f;
    }

    private static void put(Map<String, Long> f, String field, long value) {
        if (value != 0) {
            f.put(field, value);
        }
    }

    /** The tally the fields of {@link #fields()} (summed over replicas) describe; unknown fields are ignored. */
    static Tally of(Map<String, String> fields) {
        long[] t = new long[LatencyBuckets.COUNT];
        long[] p = new long[LatencyBuckets.COUNT];
        long n = 0;
        long e = 0;
        long r = 0;
        for (Map.Entry<String, String> f : fields.entrySet()) {
            String k = f.getKey();
            long v = Long.parseLong(f.getValue());
            switch (k) {
                case "n" -> n = v;
                case "e" -> e = v;
                case "r" -> r = v;
                default -> {
                    if (k.length() > 1 && (k.charAt(0) == 't' || k.charAt(0) == 'p')) {
                        int i = Integer.parseInt(k.substring(1));
                        if (i >= 0 && i < LatencyBuckets.COUNT) {
                            (k.charAt(0) == 't' ? t : p)[i] += v;
                        }
                    }
                }
            }
        }
        return new Tally(n, e, r, t, p);
    }

    /** One line for logs: {@code n=120 errors=5.0% refusals=0.0% ttft_p90=0.420s tpot_p90=0.021s}. */
    public String describe() {
        return String.format(Locale.ROOT, "n=%d errors=%.1f%% refusals=%.1f%% ttft_p90=%s tpot_p90=%s", requests,
                100 * errorRate(), 100 * refusalRate(), seconds(ttftP90()), seconds(tpotP90()));
    }

    static String seconds(double s) {
        return Double.isNaN(s) ? "-" : String.format(Locale.ROOT, "%.3fs", s);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Tally t && requests == t.requests && errors == t.errors && refusals == t.refusals
                && Arrays.equals(ttft, t.ttft) && Arrays.equals(tpot, t.tpot);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(requests) * 31 + Arrays.hashCode(ttft);
    }

    @Override
    public String toString() {
        return describe();
    }
}
