package io.inferencegateway.lab.bench;

/**
 * Picks how much faster than real time to run. Every output token is one SSE event that the fleet
 * writes, the gateway relays and the generator reads; on a small machine that event rate, not the
 * simulated GPU, is the limit. The scale is chosen so that the wall-clock event rate stays within a
 * budget: fast for light scenarios, slower than real time for heavy ones.
 */
public final class TimeScaleChooser {

    public static final double MIN_SCALE = 0.05;
    public static final double MAX_SCALE = 10;
    /** Events per request besides its tokens: role chunk, finish chunk, usage chunk, [DONE]. */
    static final int EXTRA_EVENTS_PER_REQUEST = 4;

    private TimeScaleChooser() {
    }

    /** Events per simulated second a run at this rate produces. */
    public static double simulatedEventRate(double requestsPerSecond, double meanOutputTokens) {
        return requestsPerSecond * (meanOutputTokens + EXTRA_EVENTS_PER_REQUEST);
    }

    /** The largest round scale (two significant digits) that keeps wall events per second within budget. */
    public static double choose(double requestsPerSecond, double meanOutputTokens, double eventBudgetPerWallSecond) {
        double events = simulatedEventRate(requestsPerSecond, meanOutputTokens);
        double scale = events <= 0 ? MAX_SCALE : eventBudgetPerWallSecond / events;
        scale = Math.max(MIN_SCALE, Math.min(MAX_SCALE, scale));
        double magnitude = Math.pow(10, Math.floor(Math.log10(scale)) - 1);
        return Math.max(MIN_SCALE, Math.floor(scale / magnitude) * magnitude);
    }

    /** A scale as reports print it: three significant digits, no trailing zeros. */
    public static String format(double scale) {
        return java.math.BigDecimal.valueOf(scale).round(new java.math.MathContext(3)).stripTrailingZeros()
                .toPlainString();
    }
}
