package io.inferencegateway.scheduling.framework;

import java.util.Set;

import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.metrics.EndpointMetrics;

/**
 * One candidate endpoint as this request sees it: the last scrape, corrected for what the gateway sent
 * since (see {@link LoadEstimator}). Built once per request; the framework reuses instances across
 * requests of the same thread, so plugins must not keep a reference after their call returns.
 */
public final class EndpointState {

    private Endpoint endpoint;
    private EndpointMetrics metrics;
    private boolean fresh;
    private int waiting;
    private int running;
    private double kvUsage;
    private long inFlight;
    private long sentSinceScrape;
    private long finishedSinceScrape;

    void set(Endpoint endpoint, EndpointMetrics metrics, boolean fresh, int waiting, int running, double kvUsage,
            long inFlight, long sentSinceScrape, long finishedSinceScrape) {
        this.endpoint = endpoint;
        this.metrics = metrics;
        this.fresh = fresh;
        this.waiting = waiting;
        this.running = running;
        this.kvUsage = kvUsage;
        this.inFlight = inFlight;
        this.sentSinceScrape = sentSinceScrape;
        this.finishedSinceScrape = finishedSinceScrape;
    }

    /** Makes this a copy of {@code other}, for a deferred observer ({@link DeferredPick}). */
    void copyFrom(EndpointState other) {
        set(other.endpoint, other.metrics, other.fresh, other.waiting, other.running, other.kvUsage, other.inFlight,
                other.sentSinceScrape, other.finishedSinceScrape);
    }

    public Endpoint endpoint() {
        return endpoint;
    }

    /** The last good scrape, uncorrected; null when the endpoint was never scraped. */
    public EndpointMetrics metrics() {
        return metrics;
    }

    /** True when a scrape exists and is younger than the staleness limit. */
    public boolean fresh() {
        return fresh;
    }

    /** Queued requests: scraped value plus the gateway's net dispatches since that scrape. */
    public int waiting() {
        return waiting;
    }

    /** Requests in the running batch, lowered when completions since the scrape emptied the queue. */
    public int running() {
        return running;
    }

    /** KV-cache use 0..1 including the estimated growth from prompts sent since the scrape; NaN if unknown. */
    public double kvUsage() {
        return kvUsage;
    }

    /** Requests this gateway has in flight to the endpoint right now. */
    public long inFlight() {
        return inFlight;
    }

    public long sentSinceScrape() {
        return sentSinceScrape;
    }

    public long finishedSinceScrape() {
        return finishedSinceScrape;
    }

    public Set<String> runningAdapters() {
        return metrics == null ? Set.of() : metrics.runningAdapters();
    }

    public Set<String> waitingAdapters() {
        return metrics == null ? Set.of() : metrics.waitingAdapters();
    }

    /** Adapter slots on the GPU, -1 when the engine does not say. */
    public int maxLora() {
        return metrics == null ? -1 : metrics.maxLora();
    }

    @Override
    public String toString() {
        return endpoint + "{waiting=" + waiting + ", running=" + running + ", kv=" + kvUsage + ", fresh=" + fresh + "}";
    }
}
