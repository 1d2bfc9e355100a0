package io.inferencegateway.lab.bench.fleet;

/**
 * A fault a scenario injects into one pod during a run, through the simulator's handle
 * ({@code lab/simulator/SimulatedPod}; the same faults its admin API offers).
 *
 * @param atSeconds simulated seconds after the first intended send
 * @param pod       index of the pod in the fleet
 * @param value     the new speed factor for {@link Kind#SLOW}; unused otherwise
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
        BROKEN_METRICS
    }

    public PodFault {
        if (!(atSeconds >= 0) || pod < 0) {
            throw new IllegalArgumentException("need atSeconds >= 0 and a pod index >= 0");
        }
        if (kind == Kind.SLOW && !(value > 0)) {
            throw new IllegalArgumentException("a slowed pod needs a positive speed factor");
        }
    }

    public String describe() {
        return switch (kind) {
            case KILL -> "killed";
            case SLOW -> "slowed to x" + value;
            case UNAVAILABLE -> "answers 503 to inference";
            case BROKEN_METRICS -> "serves broken /metrics";
        };
    }
}
