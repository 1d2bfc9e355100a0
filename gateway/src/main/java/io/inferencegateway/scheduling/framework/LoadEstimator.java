package io.inferencegateway.scheduling.framework;

import java.util.function.DoubleSupplier;

import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.InFlightRequests.Counters;
import io.inferencegateway.metrics.EndpointMetrics;

/**
 * Builds an endpoint's state for one request from its last scrape and the gateway's own counters, so
 * that a burst between two scrapes does not all land on the pod that looked best at the last one.
 *
 * <p>With {@code sent} and {@code finished} the gateway's counts for the endpoint since the scrape began
 * and {@code net = sent - finished}:
 * <ul>
 * <li>{@code net >= 0}: the new requests queue behind the scraped ones: {@code waiting + net}, running
 * unchanged. Pessimistic (an engine with room admits some straight into the batch), which is what stops
 * herding: the queue scorer and saturation filter see the load at once.</li>
 * <li>{@code net < 0}: completions freed batch slots; queued requests move into them first, and only
 * once the queue is empty does the batch shrink: {@code waiting' = max(0, waiting + net)},
 * {@code running' = max(0, running + min(0, waiting + net))}.</li>
 * <li>KV: the prompt tokens sent since the scrape, scaled by the share of those requests still counted
 * ({@code max(0, net) / sent}), divided by the pod's token capacity ({@code kvBlockSize * kvTotalBlocks})
 * and added to the scraped use, capped at 1. Without KV geometry in the scrape there is no estimate.
 * Prefix-cache hits and decode growth are ignored (small over one scrape interval).</li>
 * </ul>
 * Never-scraped endpoints count every gateway request in flight to them as waiting, with unknown KV.
 *
 * <p>Only this gateway's traffic is seen. With {@code replicas} active gateways in front of the same pods
 * (the pool's {@code replicas.count}), each sending about as much as this one and, under rendezvous placement,
 * to the same pods for the same prefixes, {@code sent}, {@code finished} and the in-flight count are each
 * multiplied by {@code replicas}: the burst the pod really sees between two scrapes. With shared placement that
 * factor is measured instead (the pool's routing decisions over this replica's own, heard through Redis:
 * prefix/RedisPrefixSharing.java), so it follows replicas added or removed by an autoscaler.
 */
public final class LoadEstimator {

    private final long staleAfterNanos;
    private final DoubleSupplier replicas;

    public LoadEstimator(long staleAfterNanos) {
        this(staleAfterNanos, 1);
    }

    public LoadEstimator(long staleAfterNanos, int replicas) {
        this(staleAfterNanos, constant(replicas));
    }

    /** @param replicas how many times this gateway's traffic the pods receive, read by {@link #factor()} */
    public LoadEstimator(long staleAfterNanos, DoubleSupplier replicas) {
        if (staleAfterNanos <= 0) {
            throw new IllegalArgumentException("staleAfterNanos must be positive");
        }
        this.staleAfterNanos = staleAfterNanos;
        this.replicas = replicas;
    }

    private static DoubleSupplier constant(int replicas) {
        if (replicas < 1) {
            throw new IllegalArgumentException("replicas must be at least 1");
        }
        double r = replicas;
        return () -> r;
    }

    public void estimate(EndpointState into, Endpoint endpoint, EndpointMetrics m, Counters now, long nowNanos) {
        estimate(into, endpoint, m, now.started(), now.finished(), now.startedPromptTokens(), nowNanos);
    }

    /**
     * As {@link #estimate(EndpointState, Endpoint, EndpointMetrics, Counters, long)}, with the endpoint's counters now
     * given one by one (read from its live {@link io.inferencegateway.domain.InFlightRequests.EndpointTally}, no copy).
     */
    public void estimate(EndpointState into, Endpoint endpoint, EndpointMetrics m, long startedNow, long finishedNow,
            long promptTokensNow, long nowNanos) {
        estimate(into, endpoint, m, startedNow, finishedNow, promptTokensNow, 0, nowNanos, factor());
    }

    /** The factor this gateway's counts are multiplied by now; a pick reads it once for all its candidates. */
    public double factor() {
        return Math.max(1, replicas.getAsDouble());
    }

    /**
     * As above, with the {@link #factor()} read once by the caller, and the endpoint's prompt tokens sent and not yet
     * computed ({@link EndpointState#prefillingTokens()}), multiplied by it too.
     */
    public void estimate(EndpointState into, Endpoint endpoint, EndpointMetrics m, long startedNow, long finishedNow,
            long promptTokensNow, long prefillingNow, long nowNanos, double r) {
        estimateLoad(into, endpoint, m, startedNow, finishedNow, promptTokensNow, nowNanos, r);
        into.prefillingTokens(saturatedInt(scaled(Math.max(0, prefillingNow), r)));
    }

    private void estimateLoad(EndpointState into, Endpoint endpoint, EndpointMetrics m, long startedNow,
            long finishedNow, long promptTokensNow, long nowNanos, double r) {
        long inFlight = startedNow - finishedNow;
        if (m == null) {
            into.set(endpoint, null, false, saturatedInt(scaled(inFlight, r)), 0, Double.NaN, inFlight, 0, 0);
            return;
        }
        boolean fresh = nowNanos - m.scrapeStartedNanos() <= staleAfterNanos;
        Counters then = m.dispatchedAtScrape();
        // without a snapshot at scrape time there is no baseline to compare with: no correction
        long sent = then == null ? 0 : scaled(Math.max(0, startedNow - then.started()), r);
        long finished = then == null ? 0 : scaled(Math.max(0, finishedNow - then.finished()), r);
        long promptTokens = then == null ? 0 : scaled(Math.max(0, promptTokensNow - then.startedPromptTokens()), r);
        long net = sent - finished;

        int waiting = Math.max(0, m.waiting());
        int running = Math.max(0, m.running());
        long queueAfter = waiting + net;
        int estWaiting = saturatedInt(Math.max(0, queueAfter));
        int estRunning = queueAfter >= 0 ? running : saturatedInt(Math.max(0, running + queueAfter));

        double kv = m.kvUsage();
        long capacityTokens = (long) m.kvBlockSize() * m.kvTotalBlocks();
        if (!Double.isNaN(kv) && net > 0 && sent > 0 && m.kvBlockSize() > 0 && m.kvTotalBlocks() > 0) {
            double growthTokens = (double) promptTokens * net / sent;
            kv = Math.min(1.0, kv + growthTokens / capacityTokens);
        }
        into.set(endpoint, m, fresh, estWaiting, estRunning, kv, inFlight, sent, finished);
    }

    /** {@code count × factor}, rounded (an integer factor gives exact multiples). */
    private static long scaled(long count, double factor) {
        return factor == 1 ? count : Math.round(count * factor); // the same for 1, without the rounding
    }

    private static int saturatedInt(long v) {
        return (int) Math.min(Integer.MAX_VALUE, v);
    }
}
