package io.inferencegateway.domain;

/**
 * What the latency predictor expects of one request on one pod: its time to first token and time per output token
 * there, in milliseconds (NaN while the predictor has not learned enough). Kept with the pick decision, so that the
 * measured latency is compared with it, and taught to the predictor, when the request ends ({@link #learn}).
 *
 * @see "docs/slo.md"
 */
public final class LatencyPrediction {

    /** Learns from a prediction and what was measured afterwards. */
    public interface Learner {
        /**
         * @param ttftMillis the measured time from the pick to the first token, NaN when the response was not streamed
         * @param tpotMillis the measured mean time between output tokens, NaN when not measured
         */
        void learn(LatencyPrediction prediction, double ttftMillis, double tpotMillis, int outputTokens);

        /**
         * Learns from a response that was not streamed: its first token and the rest came as one body, so only their
         * sum was measured (the first token plus {@code outputTokens − 1} times the time per token).
         *
         * @param totalMillis  the measured time from the pick to the body's end
         * @param outputTokens the output tokens its usage reported
         */
        void learnWhole(LatencyPrediction prediction, double totalMillis, int outputTokens);
    }

    private final Endpoint endpoint;
    private final double ttftMillis;
    private final double tpotMillis;
    private final int outputTokens;
    private final boolean stream;
    private final long madeNanos;
    private final double[] features;
    private final Learner learner;

    /**
     * @param outputTokens the output tokens expected (the request's budget, or what the pool's responses have
     *                     averaged), for the time to a whole body that is not streamed
     * @param features     what the learner needs to learn from this prediction (its own layout)
     */
    public LatencyPrediction(Endpoint endpoint, double ttftMillis, double tpotMillis, int outputTokens,
            boolean stream, long madeNanos, double[] features, Learner learner) {
        this.endpoint = endpoint;
        this.ttftMillis = ttftMillis;
        this.tpotMillis = tpotMillis;
        this.outputTokens = outputTokens;
        this.stream = stream;
        this.madeNanos = madeNanos;
        this.features = features;
        this.learner = learner;
    }

    /** How far a prediction falls short of targets: at most 1 when it meets both, NaN without targets or prediction. */
    public static double ratio(double ttftMillis, double tpotMillis, int outputTokens, boolean stream,
            LatencyTargets targets) {
        double ratio = Double.NaN;
        if (targets.ttftMillis() > 0) {
            double firstByte = stream ? ttftMillis : ttftMillis + tpotMillis * Math.max(0, outputTokens - 1);
            ratio = firstByte / targets.ttftMillis();
        }
        if (targets.tpotMillis() > 0 && stream) {
            double tpot = tpotMillis / targets.tpotMillis();
            ratio = Double.isNaN(ratio) ? tpot : Math.max(ratio, tpot);
        }
        return ratio;
    }

    /** {@link #ratio(double, double, int, boolean, LatencyTargets)} of this prediction. */
    public double ratio(LatencyTargets targets) {
        return ratio(ttftMillis, tpotMillis, outputTokens, stream, targets);
    }

    /** Whether the prediction exists and meets {@code targets} (true for no targets). */
    public boolean meets(LatencyTargets targets) {
        return !targets.any() || ratio(targets) <= 1;
    }

    /**
     * Teaches the predictor a response that was not streamed, whose whole body ended at {@code endNanos} with
     * {@code outputTokens} output tokens: see {@link Learner#learnWhole}.
     */
    public void learnWhole(long endNanos, int outputTokens) {
        if (learner != null) {
            learner.learnWhole(this, (endNanos - madeNanos) / 1e6, outputTokens);
        }
    }

    /** Teaches the predictor what was measured: see {@link Learner#learn}. */
    public void learn(double measuredTtftMillis, double measuredTpotMillis, int measuredOutputTokens) {
        if (learner != null) {
            learner.learn(this, measuredTtftMillis, measuredTpotMillis, measuredOutputTokens);
        }
    }

    public Endpoint endpoint() {
        return endpoint;
    }

    /** Predicted time from the pick to the first token on {@link #endpoint}; NaN when not predicted. */
    public double ttftMillis() {
        return ttftMillis;
    }

    /** Predicted mean time between output tokens; NaN when not predicted. */
    public double tpotMillis() {
        return tpotMillis;
    }

    public boolean predicted() {
        return !Double.isNaN(ttftMillis);
    }

    public long madeNanos() {
        return madeNanos;
    }

    /** The learner's own record of what the prediction was made from. */
    public double[] features() {
        return features;
    }

    @Override
    public String toString() {
        return endpoint + "{ttft=" + Math.round(ttftMillis) + "ms, tpot=" + Math.round(tpotMillis) + "ms}";
    }
}
