package io.inferencegateway.lab.bench.fleet;

/**
 * What one model server's Prometheus text says at one moment, in the bench's terms; NaN for whatever its engine
 * does not publish. Counters count since the server started, which on a user's own fleet is before the bench.
 *
 * @param prefixQueries prompt tokens looked up in the prefix cache
 * @param prefixHits    of those, tokens found cached
 * @param served        requests completed
 * @param preemptions   running requests evicted for lack of KV cache
 */
public record ServerReading(double waiting, double running, double prefixQueries, double prefixHits, double served,
                            double preemptions) {

    /** Nothing known: the server did not answer, or its text was not the engine's. */
    public static final ServerReading UNKNOWN = new ServerReading(Double.NaN, Double.NaN, Double.NaN, Double.NaN,
            Double.NaN, Double.NaN);

    /** Requests in the server now, running or waiting; NaN when it does not say. */
    public double inFlight() {
        if (Double.isNaN(waiting) && Double.isNaN(running)) {
            return Double.NaN;
        }
        return (Double.isNaN(waiting) ? 0 : waiting) + (Double.isNaN(running) ? 0 : running);
    }

    /**
     * This reading as a pod sample counted from {@code since} (the reading when the run's fleet was taken): counters
     * as differences, gauges as they are. Unknown prefix counters become 0 (no hit rate), unknown served and
     * preemption counts -1 (the report shows them as missing).
     */
    public PodSample since(ServerReading since) {
        return new PodSample(gauge(waiting), gauge(running), 0, countedSince(served, since.served, -1),
                countedSince(prefixQueries, since.prefixQueries, 0), countedSince(prefixHits, since.prefixHits, 0),
                countedSince(preemptions, since.preemptions, -1));
    }

    private static int gauge(double value) {
        return Double.isNaN(value) ? 0 : (int) Math.round(value);
    }

    /** now − then, with a counter that was absent then counted from 0, and {@code unknown} when absent now. */
    private static long countedSince(double now, double then, long unknown) {
        if (Double.isNaN(now)) {
            return unknown;
        }
        return Math.max(0, Math.round(now - (Double.isNaN(then) ? 0 : then)));
    }
}
