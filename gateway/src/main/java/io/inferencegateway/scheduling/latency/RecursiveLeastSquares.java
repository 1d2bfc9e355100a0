package io.inferencegateway.scheduling.latency;

/**
 * Online linear regression by recursive least squares with forgetting: each sample updates the coefficients in
 * O(d²), no history kept, and old samples weigh {@code forgetting}ⁿ after n newer ones, so that the fit follows a
 * fleet whose speed changes. The covariance stops forgetting once its trace passes a bound, so that features that
 * stop varying (an idle pool) do not blow it up. Not thread-safe: the predictor serializes updates.
 */
final class RecursiveLeastSquares {

    private static final double MAX_TRACE = 1e7;

    private final int d;
    private final int from; // where its features start in the arrays it is given
    private final double forgetting;
    private final double[] theta;
    private final double[] p; // d x d, row-major
    private final double[] px;

    /**
     * @param prior      the coefficients before any sample
     * @param confidence the covariance's initial diagonal: how little the prior is trusted
     * @param from       where its features start in the arrays {@link #update} and {@link #predict} are given
     */
    RecursiveLeastSquares(double[] prior, double confidence, double forgetting, int from) {
        this.d = prior.length;
        this.from = from;
        this.forgetting = forgetting;
        this.theta = prior.clone();
        this.p = new double[d * d];
        this.px = new double[d];
        for (int i = 0; i < d; i++) {
            p[i * d + i] = confidence;
        }
    }

    /** Moves the fit towards {@code y} at {@code x}. */
    void update(double[] x, double y) {
        double[] pxv = px;
        double denominator = forgetting;
        for (int i = 0; i < d; i++) {
            double s = 0;
            for (int j = 0; j < d; j++) {
                s += p[i * d + j] * x[from + j];
            }
            pxv[i] = s;
            denominator += x[from + i] * s;
        }
        double error = y - predict(x);
        double trace = 0;
        double divisor = 1;
        for (int i = 0; i < d; i++) {
            trace += p[i * d + i];
        }
        if (trace < MAX_TRACE) {
            divisor = forgetting;
        }
        for (int i = 0; i < d; i++) {
            double k = pxv[i] / denominator;
            theta[i] += k * error;
            for (int j = 0; j < d; j++) {
                p[i * d + j] = (p[i * d + j] - k * pxv[j]) / divisor;
            }
        }
    }

    double predict(double[] x) {
        return dot(theta, x, from);
    }

    /** {@code c} · the {@code c.length} features of {@code x} from {@code from}. */
    static double dot(double[] c, double[] x, int from) {
        double y = 0;
        for (int i = 0; i < c.length; i++) {
            y += c[i] * x[from + i];
        }
        return y;
    }

    /** A copy of the coefficients, to publish to readers. */
    double[] coefficients() {
        return theta.clone();
    }
}
