package io.inferencegateway.scheduling.latency;

import io.inferencegateway.domain.Endpoint;

/**
 * How well a pool's latency predictions order its pods: of pairs of requests served by different pods and picked
 * within a second of each other, the share whose measured latencies came in the order their predictions said (a
 * concordance index: 1 when every pair was in order, 0.5 no better than a coin, 0 every pair reversed). The error
 * ({@link LatencyPredictor.Accuracy}) says how far off a prediction is; this says whether the pod predicted faster
 * was, which is what a pick relies on: a predictor 30 % high on every pod alike still picks right, and one with a
 * small error that swaps two pods picks wrong.
 *
 * <p>It keeps the last {@value #RING} measurements (pod, pick time, what was measured, predicted and measured
 * milliseconds) in a ring and compares each new one with those picked within {@link #WINDOW_NANOS} of it on another
 * pod that measured the same thing: a stream's first token with another stream's first token, a whole body with
 * another of as many output tokens (its time is mostly its length otherwise). A pair whose predictions tie counts
 * half; one whose measurements tie, not at all. The share is over the pairs of the last ~200 measurements that
 * made any (exponentially weighted, each pair alike). Memory is fixed. The predictor adds to it when it learns; the
 * prediction path never touches it.
 */
public final class RankingConcordance {

    /** The measurements held: at a few hundred responses a second, the last one's second. */
    static final int RING = 64;
    /** Two requests are compared when picked at most this far apart: the pods' load was then about the same. */
    static final long WINDOW_NANOS = 1_000_000_000L;
    /** The moving window: ~200 measurements. */
    private static final double RATE = 0.005;

    private final Endpoint[] pods = new Endpoint[RING];
    private final long[] picked = new long[RING];
    private final int[] kinds = new int[RING];
    private final double[] predicted = new double[RING];
    private final double[] measured = new double[RING];
    private int next;
    private int held;
    private double inOrder; // exponentially weighted by measurement, as the pairs are
    private double pairs;
    private long compared;

    /**
     * A prediction compared with its measurement, then with the recent ones.
     *
     * @param kind what was measured: 0 for a stream's first token, n for a whole body of n output tokens
     */
    synchronized void add(Endpoint pod, long pickedNanos, int kind, double predictedMillis, double measuredMillis) {
        double ordered = 0;
        int n = 0;
        for (int i = 0; i < held; i++) {
            if (kinds[i] != kind || pods[i].equals(pod) || Math.abs(picked[i] - pickedNanos) > WINDOW_NANOS) {
                continue;
            }
            double measuredApart = measuredMillis - measured[i];
            if (measuredApart == 0) {
                continue;
            }
            double predictedApart = predictedMillis - predicted[i];
            ordered += predictedApart == 0 ? 0.5 : (predictedApart > 0) == (measuredApart > 0) ? 1 : 0;
            n++;
        }
        if (n > 0) {
            inOrder = inOrder * (1 - RATE) + ordered;
            pairs = pairs * (1 - RATE) + n;
            compared += n;
        }
        pods[next] = pod;
        picked[next] = pickedNanos;
        kinds[next] = kind;
        predicted[next] = predictedMillis;
        measured[next] = measuredMillis;
        next = (next + 1) % RING;
        held = Math.min(RING, held + 1);
    }

    /** The share of recent pairs measured in the order predicted, 0..1; NaN before the first pair. */
    public synchronized double share() {
        return pairs == 0 ? Double.NaN : inOrder / pairs;
    }

    /** Pairs compared so far. */
    public synchronized long compared() {
        return compared;
    }
}
