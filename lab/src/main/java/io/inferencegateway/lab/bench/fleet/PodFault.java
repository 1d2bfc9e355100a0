package io.inferencegateway.lab.bench.fleet;

/**
 * A fault a scenario injects into one pod during a run, through the simulator's handle
 * ({@code lab/simulator/SimulatedPod}; the same faults its admin API offers).
 *
 * @param atSeconds simulated seconds after the first intended send
 * @param pod       index of the pod in the fleet
 * @param value     the new speed factor for {@link Kind#SLOW}, the share of failed requests for {@link Kind#ERRORS};
 *                  unused otherwise
 */
public record PodFault(double atSeconds, int pod, Kind kind, double value) {

    /** What happens to the pod. */
    public enum Kind {
        /** The process dies: its listener closes, open connections and the streams on them break. */
        KILL,
        /** Its GPU slows down to {@code value} times the reference speed. */
        SLOW,
        /** Generation requests answer 503 at once; /health and /metrics keep working. */
        UNAVAILABLE,
        /** /metrics answers 200 with text that is not Prometheus exposition format. */
        BROKEN_METRICS,
        /** That share ({@code value}, 0 to 1) of its generation requests answers 500 at once, evenly spread. */
        ERRORS
    }

    public PodFault {
        if (!(atSeconds >= 0) || pod < 0) {
            throw new IllegalArgumentException("need atSeconds >= 0 and a pod index >= 0");
        }
        if (kind == Kind.SLOW && !(value > 0)) {
            throw new IllegalArgumentException("a slowed pod needs a positive speed factor");
        }
        if (kind == Kind.ERRORS && !(value > 0 && value <= 1)) {
            throw new IllegalArgumentException("an error share must be above 0 and at most 1");
        }
    }

    public String describe() {
        return switch (kind) {
            case KILL -> "killed";
            case SLOW -> "slowed to x" + value;
            case UNAVAILABLE -> "answers 503 to inference";
            case BROKEN_METRICS -> "serves broken /metrics";
            case ERRORS -> "answers 500 to " + Math.round(value * 1000) / 10.0 + "% of inference";
        };
    }
}
