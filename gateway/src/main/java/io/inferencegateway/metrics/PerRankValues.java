package io.inferencegateway.metrics;

import java.util.Arrays;

/**
 * One gauge across the data-parallel ranks of a model server (vLLM's {@code engine} label, SGLang's
 * {@code dp_rank}). Several series of the same rank (tensor-parallel ranks reporting the same scheduler, or one
 * series per process id) are copies of one number, so they combine by max; distinct ranks are separate schedulers
 * with separate queues and KV caches, so the caller sums or takes the max across them.
 */
final class PerRankValues {

    private static final String NO_RANK = "";

    private String[] ranks = new String[2];
    private double[] values = new double[2];
    private int count;

    /**
     * Records one sample. Non-finite and negative values are ignored: a count or a fraction that is NaN or negative
     * says nothing about load.
     *
     * @param rankLabel the label naming the rank, or null when the engine has no data-parallel label
     */
    void record(Labels labels, String rankLabel, double value) {
        if (!Double.isFinite(value) || value < 0) {
            return;
        }
        int label = rankLabel == null ? -1 : labels.indexOf(rankLabel);
        for (int r = 0; r < count; r++) {
            boolean sameRank = label < 0 ? ranks[r].isEmpty() : labels.valueEquals(label, ranks[r]);
            if (sameRank) {
                values[r] = Math.max(values[r], value);
                return;
            }
        }
        if (count == ranks.length) {
            ranks = Arrays.copyOf(ranks, count * 2);
            values = Arrays.copyOf(values, count * 2);
        }
        ranks[count] = label < 0 ? NO_RANK : labels.value(label);
        values[count] = value;
        count++;
    }

    /**
     * Records a value of a rank named by the reading itself rather than by a label (a cluster's summary: its pods'
     * queues and its gateway's queue are two queues a request may wait in, summed like two ranks').
     */
    void record(String rank, double value) {
        if (!Double.isFinite(value) || value < 0) {
            return;
        }
        for (int r = 0; r < count; r++) {
            if (ranks[r].equals(rank)) {
                values[r] = Math.max(values[r], value);
                return;
            }
        }
        if (count == ranks.length) {
            ranks = Arrays.copyOf(ranks, count * 2);
            values = Arrays.copyOf(values, count * 2);
        }
        ranks[count] = rank;
        values[count] = value;
        count++;
    }

    /** Replaces what was recorded with a copy of {@code other}'s values. */
    void take(PerRankValues other) {
        ranks = other.ranks.clone();
        values = other.values.clone();
        count = other.count;
    }

    boolean isEmpty() {
        return count == 0;
    }

    /** The sum over ranks, or NaN when nothing was recorded. */
    double sum() {
        if (count == 0) {
            return Double.NaN;
        }
        double sum = 0;
        for (int r = 0; r < count; r++) {
            sum += values[r];
        }
        return sum;
    }

    /** The largest value of any rank, or NaN when nothing was recorded. */
    double max() {
        if (count == 0) {
            return Double.NaN;
        }
        double max = values[0];
        for (int r = 1; r < count; r++) {
            max = Math.max(max, values[r]);
        }
        return max;
    }
}
