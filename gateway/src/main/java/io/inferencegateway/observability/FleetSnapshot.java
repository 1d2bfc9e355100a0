package io.inferencegateway.observability;

import java.util.List;

/**
 * The live fleet page's data at one moment: the JSON of {@code GET /ui/fleet} (src/main/resources/ui/fleet.html
 * renders it; docs/observability.md describes the fields). Unknown numbers are null: a pod never scraped, an engine
 * that does not publish a value, a pod without answers in the window.
 *
 * @param generatedAtMillis wall-clock time of the snapshot
 * @param windowSeconds     how far back picks, TTFT percentiles and the pick history reach
 * @param rateSeconds       the seconds {@code picksPerSecond} averages over (the last completed ones)
 */
public record FleetSnapshot(long generatedAtMillis, int windowSeconds, int rateSeconds, List<PoolView> pools) {

    /**
     * One model pool.
     *
     * @param policy        the scheduling policy's config name
     * @param homeRegion    at a global tier, the region standard traffic stays in while it can; null for a pool of
     *                      pods (its endpoints are then pods, and their {@code target} is null)
     * @param fallback      for the GPU-aware policy: true while no pod had fresh metrics at its last decision, so
     *                      requests go by the gateway's own in-flight counts; null for the load-blind policies
     * @param staleAfterMs  metrics older than this are stale
     * @param freshPods     pods whose metrics are fresh (at a global tier: clusters whose capacity summary is)
     * @param decisions     the pool's last requests, newest first
     * @param predictor     how well the pool's latency predictor does; null for a policy that does not predict
     * @param attainment    requests with latency targets judged in the window, per priority band (critical,
     *                      standard, sheddable)
     */
    public record PoolView(String name, String model, List<String> adapters, String policy, String homeRegion,
            Boolean fallback, long staleAfterMs, int freshPods, long inFlight, double picksPerSecond, long picksInWindow,
            Double ttftP50Ms, Double ttftP99Ms, List<PodView> pods, List<Decision> decisions, Predictor predictor,
            List<Attainment> attainment) {
    }

    /**
     * A pool's latency predictor, predicted against measured over its last ~200 streamed responses (docs/slo.md).
     * Errors are fractions of the measured value, null before the first comparison.
     *
     * @param samples     responses it learned from (streams and plain bodies)
     * @param ready       whether it has learned enough for its predictions to be used
     * @param ttftMape    mean |predicted - measured| / measured of the time to first token
     * @param ttftBias    mean (predicted - measured) / measured: above 0 when predictions run high
     * @param concordance the share of pairs of recent requests on different pods measured in the order predicted
     *                    (0.5: a coin toss); null before the first pair
     */
    public record Predictor(long samples, boolean ready, Double ttftMape, Double ttftBias, Double tpotMape,
            Double tpotBias, Double concordance) {
    }

    /**
     * One priority band's requests with latency targets that ended in the window.
     *
     * @param ratio attained / (attained + missed); null when none was judged
     */
    public record Attainment(String priority, long attained, long missed, Double ratio) {
    }

    /**
     * One endpoint of a pool: its last scrape and what the gateway sent it.
     *
     * @param queue           requests waiting in the engine
     * @param running         requests in the running batch
     * @param kvUsage         KV-cache use, 0..1
     * @param runningAdapters LoRA adapters in the running batch
     * @param waitingAdapters LoRA adapters of queued requests
     * @param metricsAgeMs    since the last good scrape started; null when none succeeded
     * @param stale           never scraped, or the last good scrape is older than the pool's limit; never for a
     *                        provider, which is not polled
     * @param scrapeFailures  failed scrapes since the last good one
     * @param lastError       what the last failed scrape said while failures go on, else null
     * @param inFlight        requests the gateway sent and has not seen end
     * @param picksHistory    picks per second over the window, oldest first, the running second last
     * @param ttftSamples     answers the percentiles are taken over
     * @param target          at a global tier, the cluster or provider at this address and what its capacity
     *                        summary said; null for a pod
     */
    public record PodView(String pod, Integer queue, Integer running, Double kvUsage, List<String> runningAdapters,
            List<String> waitingAdapters, Long metricsAgeMs, boolean stale, long scrapeFailures, String lastError,
            long inFlight, double picksPerSecond, long picksInWindow, int[] picksHistory, Double ttftP50Ms,
            Double ttftP99Ms, int ttftSamples, TargetView target) {
    }

    /**
     * A global tier's cluster or provider (docs/global.md): as configured, and a cluster's last capacity summary for
     * the pool's model. The summary's numbers are null for a provider (never polled), for a cluster not yet read, and
     * where the cluster does not know them (no recent answers, a policy that does not predict).
     *
     * @param kind                  {@code cluster} or {@code provider}
     * @param region                its configured region; empty for a provider without one
     * @param home                  whether that is the tier's home region
     * @param inputPricePerMillion  what a million prompt tokens cost there (currency units)
     * @param outputPricePerMillion what a million completion tokens cost there
     * @param roundTripMs           the lowest of the recent polls' request-to-headers times: the distance to it
     * @param readyPods             the cluster's pods of the model with fresh metrics
     * @param pods                  its pods of the model, ready or not
     * @param gatewayQueue          requests waiting in the cluster gateway's own flow-control queue (also in the
     *                              endpoint's {@code queue}, with its pods' queues)
     * @param kvHeadroom            mean 1 - KV-cache use over its ready pods, 0..1
     * @param errorRatio            its requests of the last seconds that failed, 0..1
     * @param saturation            share of its ready pods its saturation detector finds full, 0..1
     * @param ttftMs                median time to first token of its recent answers
     * @param predictedTtftMs       its latency predictor's time to first token for a typical request
     * @param recentRequests        requests its recent values are taken over
     */
    public record TargetView(String name, String kind, String region, boolean home, double inputPricePerMillion,
            double outputPricePerMillion, Double roundTripMs, Integer readyPods, Integer pods, Integer gatewayQueue,
            Double kvHeadroom, Double errorRatio, Double saturation, Double ttftMs, Double predictedTtftMs,
            Double tpotMs, Double predictedTpotMs, Long recentRequests) {
    }

    /**
     * One request of a pool, as it ended.
     *
     * @param timeMillis           wall-clock arrival
     * @param pod                  the endpoint that served it, null when none was picked
     * @param target               at a global tier, the name of the cluster or provider that served it, else null
     * @param reason               what decided the pick ({@link io.inferencegateway.domain.PickReason#label()}), or null
     * @param attempts             endpoints tried (more than one after a failover)
     * @param ttftMs               arrival to first content (a plain response: to its end); null when not served
     * @param ending               how it ended (completed, upstream_failed, client_gone, refused)
     * @param error                the error code, as the request meters count it, or null
     * @param expectedCachedTokens prompt tokens the scheduler expected the pod to have cached
     * @param cachedTokens         cached prompt tokens the model server reported, null when it did not say
     * @param slo                  against its latency targets: met, or the kind of miss (ttft, tpot, refused); null
     *                             without targets
     * @param cost                 at a global tier, what it cost at its target's price (currency units); null for a
     *                             pod, or without usage
     */
    public record Decision(long timeMillis, String model, String pod, String target, String reason, int attempts,
            int status, boolean stream, Double ttftMs, double durationMs, String ending, String error,
            int expectedCachedTokens, Integer inputTokens, Integer outputTokens, Integer cachedTokens, String slo,
            Double cost) {
    }
}
