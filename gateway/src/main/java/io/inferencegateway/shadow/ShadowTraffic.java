package io.inferencegateway.shadow;

import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.inferencegateway.config.ShadowConfig;
import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.GatewayError;
import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.domain.LatencyTargets;
import io.inferencegateway.domain.NanoClock;
import io.inferencegateway.domain.PendingPick;
import io.inferencegateway.domain.Scheduling;
import io.inferencegateway.domain.Priority;
import io.inferencegateway.openai.ModelRename;
import io.inferencegateway.openai.StreamUsage;
import io.inferencegateway.pool.ModelPool;
import io.inferencegateway.pool.ModelPools;
import io.inferencegateway.proxy.UpstreamClient;
import io.inferencegateway.proxy.UpstreamRequests;
import io.inferencegateway.proxy.UpstreamTls;
import io.netty.buffer.ByteBuf;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.FullHttpRequest;

/**
 * Shadow traffic (docs/shadow.md): a share of a pool's requests is copied to a candidate model or adapter, whose
 * answer is read and discarded. The request path only samples and takes a retained view of the body
 * ({@link #sampled}); the copy is sent later, once the client's request went to its pod ({@link #send}).
 *
 * <p>A copy goes only while the candidate's pool has room and the primary pool's copies in flight are under its
 * {@code maxInFlight}; otherwise it is dropped, never queued. It is placed by the candidate pool's own policy and counts
 * in flight on its pod (so real traffic sees the load it adds); its pick teaches the prefix index (the pod does hold
 * the prompt), but it teaches the latency predictor nothing, feeds no outlier detection, retry budget or rate limit,
 * and is told to no request listener: what it costs the candidate's real traffic is a pod slot while it runs.
 */
public final class ShadowTraffic {

    /** The header a copy carries, so that model servers and their logs can tell it from a client's request. */
    public static final String HEADER = "x-gateway-shadow";

    static final Logger LOG = LoggerFactory.getLogger(ShadowTraffic.class);

    /** A draw's resolution: a millionth, so that a percent is honoured to four decimals. */
    private static final long DRAWS = 1_000_000;

    private final Supplier<ModelPools> pools;
    private final NanoClock clock;
    private final ShadowMeters meters;
    // copies in flight per primary pool, by name: bounded by the pools ever configured; a reload keeps the count
    private final ConcurrentHashMap<String, AtomicInteger> inFlight = new ConcurrentHashMap<>();

    public ShadowTraffic(Supplier<ModelPools> pools, NanoClock clock, ShadowMeters meters) {
        this.pools = pools;
        this.clock = clock;
        this.meters = meters;
    }

    /**
     * Whether a request is copied: {@code percent} of them, the same answer for the same {@code x-request-id} (on every
     * replica), a fresh draw for a request without one. A few nanoseconds, no allocation.
     */
    public static boolean sampled(ShadowConfig shadow, String requestId) {
        if (shadow.percent() >= 100) {
            return true;
        }
        long draw = requestId == null ? ThreadLocalRandom.current().nextLong() : mix(requestId.hashCode());
        return Long.remainderUnsigned(draw, DRAWS) < (long) (shadow.percent() * (DRAWS / 100));
    }

    /** SplitMix64's finalizer: spreads a string hash's 32 bits over a long's 64. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    /**
     * Sends a copy, or drops it: on {@code loop} (the client connection's, after its request went out) or, when null,
     * on the client's own loops. Releases the copy's body whatever happens; never throws.
     *
     * @param tls how to speak to the candidate's pods (the upstream component's), or null for plain HTTP
     */
    public void send(ShadowCopy copy, UpstreamClient client, UpstreamTls tls, EventLoop loop) {
        ShadowConfig s = copy.pool().config().shadow();
        ByteBuf body = copy.body();
        ShadowMeters.Pair m = meters.of(copy.pool().name(), s.model());
        try {
            ModelPools.Resolution target = pools.get().resolve(s.model());
            if (target == null || target.pool().config().global()) { // a reload took the candidate away
                dropped(copy, m, ShadowMeters.ShadowOutcome.FAILED, "no pool of pods serves the candidate");
                return;
            }
            ModelPool pool = target.pool();
            List<Endpoint> candidates = pool.outliers().admitted(pool.endpoints());
            if (candidates.isEmpty()) {
                dropped(copy, m, ShadowMeters.ShadowOutcome.FAILED, "the candidate's pool has no pod");
                return;
            }
            InferenceRequest request = copy.request().toBuilder().model(s.model()).adapter(target.adapter())
                    .priority(Priority.SHEDDABLE).targets(LatencyTargets.NONE).build();
            Scheduling scheduling = pool.flowControl().queued() > 0 ? null
                    : pool.policy().begin(request, candidates, 0);
            if (scheduling == null || scheduling.saturated()) {
                if (scheduling != null) {
                    scheduling.close();
                }
                dropped(copy, m, ShadowMeters.ShadowOutcome.DROPPED_SATURATED, "the candidate's pool is full");
                return;
            }
            AtomicInteger budget = budget(copy.pool().name());
            if (budget.incrementAndGet() > s.maxInFlight()) {
                budget.decrementAndGet();
                scheduling.close();
                dropped(copy, m, ShadowMeters.ShadowOutcome.DROPPED_BUDGET, "maxInFlight copies in flight");
                return;
            }
            PendingPick pick;
            try {
                pick = scheduling.pick(); // on the snapshot that found room
            } catch (GatewayError e) {
                budget.decrementAndGet();
                dropped(copy, m, ShadowMeters.ShadowOutcome.FAILED, e.getMessage());
                return;
            }
            Endpoint pod = pick.decision().endpoint();
            ByteBuf sent = ModelRename.renamed(body, s.model());
            body.release();
            body = null;
            if (copy.askUsage() && StreamUsage.applies(request)) {
                ByteBuf withUsage = StreamUsage.withUsage(sent);
                sent.release();
                sent = withUsage;
            }
            FullHttpRequest upstream = UpstreamRequests.forward(copy.method(), copy.uri(), copy.headers(), sent, pod,
                    null);
            upstream.headers().set(HEADER, "1");
            new ShadowCall(copy, s.model(), pool, pod, request.promptTokensEstimate(), budget, m, clock)
                    .start(client, upstream, pool.config().routeTimeout(), loop, tls);
            pick.commit(); // the pod now holds the prompt: true, so the prefix index may learn it
        } catch (RuntimeException e) { // a copy's failure is never the client's
            if (body != null) {
                body.release();
            }
            m.ended(ShadowMeters.ShadowOutcome.FAILED);
            LOG.warn("shadow copy of {} to {} failed: {}", copy.pool().name(), s.model(), e.toString());
        }
    }

    private AtomicInteger budget(String pool) {
        AtomicInteger b = inFlight.get(pool);
        if (b != null) {
            return b;
        }
        return inFlight.computeIfAbsent(pool, p -> {
            AtomicInteger count = new AtomicInteger();
            meters.inFlight(p, count);
            return count;
        });
    }

    /** Copies of {@code pool}'s requests in flight now. */
    public int inFlight(String pool) {
        AtomicInteger b = inFlight.get(pool);
        return b == null ? 0 : b.get();
    }

    private static void dropped(ShadowCopy copy, ShadowMeters.Pair m, ShadowMeters.ShadowOutcome why, String detail) {
        copy.body().release();
        m.ended(why);
        if (LOG.isDebugEnabled()) {
            LOG.debug("shadow copy pool={} candidate={} request_id={} outcome={} ({})", copy.pool().name(),
                    copy.pool().config().shadow().model(), copy.requestId(), why.label, detail);
        }
    }
}
