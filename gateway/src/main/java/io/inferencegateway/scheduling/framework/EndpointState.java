package io.inferencegateway.scheduling.framework;

import java.util.Arrays;
import java.util.Set;

import io.inferencegateway.config.TargetConfig;
import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.LatencyPrediction;
import io.inferencegateway.metrics.ClusterCapacity;
import io.inferencegateway.metrics.EndpointMetrics;

/**
 * One candidate endpoint as this request sees it: the last scrape, corrected for what the gateway sent since (see
 * {@link LoadEstimator}), and the facts the producers attached (cached prompt tokens, predicted latency, a global
 * tier's target). Built once per request, in its snapshot; the framework reuses instances across requests, so plugins
 * must not keep a reference after their call returns.
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
    private int cachedTokens;
    private int prefillingTokens;
    private double predictedTtftMillis = Double.NaN;
    private double predictedTpotMillis = Double.NaN;
    private double latencyRatio = Double.NaN;
    private TargetConfig target;
    private double failureRatio = Double.NaN;
    private LatencyPrediction prediction;
    private double[] facts = new double[0]; // one slot per fact its pool registered

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
        this.cachedTokens = 0;
        this.prefillingTokens = 0;
        this.predictedTtftMillis = Double.NaN;
        this.predictedTpotMillis = Double.NaN;
        this.latencyRatio = Double.NaN;
        this.target = null;
        this.failureRatio = Double.NaN;
        this.prediction = null;
        Arrays.fill(facts, Double.NaN);
    }

    /** Makes room for {@code count} facts (a pool's registered ones). */
    void facts(int count) {
        if (facts.length != count) {
            facts = new double[count];
            Arrays.fill(facts, Double.NaN);
        }
    }

    /** What a producer attached as {@code fact} for this request; NaN when none did. */
    public double fact(Fact fact) {
        return facts[fact.slot()];
    }

    /** Attaches {@code value} as {@code fact}; for producers. */
    public void fact(Fact fact, double value) {
        facts[fact.slot()] = value;
    }

    /**
     * At a global tier, which cluster or provider this endpoint is, and the share of the gateway's recent requests to
     * it that failed (NaN when unknown); attached by a producer, for a pool of targets only.
     */
    public void target(TargetConfig target, double failureRatio) {
        this.target = target;
        this.failureRatio = failureRatio;
    }

    /** The cluster or provider this endpoint is at a global tier (its region, kind and price); null for a pod. */
    public TargetConfig target() {
        return target;
    }

    /** The share 0..1 of this gateway's recent requests here that failed; NaN when unknown (or not a global tier). */
    public double failureRatio() {
        return failureRatio;
    }

    /** A cluster's capacity summary beyond queue and KV, from its last poll; null for a pod, a provider, or unread. */
    public ClusterCapacity cluster() {
        return metrics == null ? null : metrics.cluster();
    }

    /**
     * The latency predicted for this request on this pod (scheduling/latency/LatencyPredictor.java), with the prompt
     * tokens it expects the pod to serve from its prefix cache; attached by a producer before the filters run for a
     * request with latency targets, else NaN.
     */
    public void predicted(double ttftMillis, double tpotMillis, double ratio) {
        this.predictedTtftMillis = ttftMillis;
        this.predictedTpotMillis = tpotMillis;
        this.latencyRatio = ratio;
    }

    /**
     * How far the prediction falls short of the request's targets (io.inferencegateway.domain.LatencyPrediction#ratio):
     * at most 1 when this pod is predicted to meet them; NaN when not predicted.
     */
    public double latencyRatio() {
        return latencyRatio;
    }

    /** Predicted time to first token here in milliseconds; NaN when not predicted (no targets, or still learning). */
    public double predictedTtftMillis() {
        return predictedTtftMillis;
    }

    /** Predicted time per output token here in milliseconds; NaN when not predicted. */
    public double predictedTpotMillis() {
        return predictedTpotMillis;
    }

    /**
     * The latency predicted on this endpoint once it was chosen, which the request's ending teaches the predictor;
     * null on any other candidate, or when nobody predicts.
     */
    public LatencyPrediction prediction() {
        return prediction;
    }

    public void prediction(LatencyPrediction p) {
        this.prediction = p;
    }

    /** Prompt tokens this pod probably serves from its prefix cache, as the producers counted them. */
    public int cachedTokens() {
        return cachedTokens;
    }

    public void cachedTokens(int tokens) {
        this.cachedTokens = tokens;
    }

    /**
     * Prompt tokens the gateway sent here that the pod has not computed yet (no first token back), less what it was
     * expected to cache; times the replicas' factor, as the other counts of the gateway's traffic.
     */
    public int prefillingTokens() {
        return prefillingTokens;
    }

    public void prefillingTokens(int tokens) {
        this.prefillingTokens = tokens;
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
