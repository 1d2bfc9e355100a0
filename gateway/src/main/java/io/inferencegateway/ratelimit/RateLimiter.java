package io.inferencegateway.ratelimit;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

import io.inferencegateway.config.RateLimitConfig;
import io.inferencegateway.config.TenantConfig;
import io.inferencegateway.domain.GatewayError;
import io.inferencegateway.domain.ParsedBody;
import io.inferencegateway.domain.RequestListener;
import io.inferencegateway.domain.RequestRecord;
import io.lettuce.core.resource.ClientResources;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tenants' request and token limits ({@code spec.tenants[].limits}, {@code .modelLimits}), counted
 * reserve-then-commit: at admission a request reserves its prompt estimate plus its {@code max_tokens} (or
 * {@code spec.rateLimits.defaultMaxTokens}) in every budget it falls under, atomically, so that concurrent requests
 * cannot overshoot; when it ends its real usage replaces the reservation and the difference goes back. A tenant
 * without limits costs nothing: no scope, no store call.
 *
 * <p>When the shared store cannot be reached the configured fail mode decides (admit uncounted, or refuse with 503);
 * the change of state is logged once each way and metered. See docs/auth.md.
 */
public final class RateLimiter implements RequestListener, AutoCloseable {

    /** Where a request's record keeps its reservation, from admission to its end, when {@link #ended} settles it. */
    public static final RequestRecord.Key<Admission> RESERVATION = RequestRecord.Key.of("rate-limit reservation",
            Admission.class);

    private static final Logger LOG = LoggerFactory.getLogger(RateLimiter.class);

    private final RateLimitMeters meters;
    private final Supplier<ClientResources> redis;
    private final AtomicBoolean storeUp = new AtomicBoolean(true);
    private volatile RateLimitConfig config;
    private volatile LimitStore store;

    /** @param redis the gateway's Lettuce threads, asked for only when the limits are counted on Redis */
    public RateLimiter(RateLimitConfig config, RateLimitMeters meters, Supplier<ClientResources> redis) {
        this.meters = meters;
        meters.storeUp(storeUp::get);
        this.redis = redis;
        this.config = config;
        this.store = newStore(config);
    }

    private LimitStore newStore(RateLimitConfig c) {
        return c.shared() ? new RedisLimitStore(c.redisUrl(), c.redisTimeout(), redis.get())
                : new LocalLimitStore(System::currentTimeMillis);
    }

    /** Applies a reloaded {@code spec.rateLimits}; a changed store is connected afresh (the old one closes). */
    public synchronized void reconfigure(RateLimitConfig next) {
        RateLimitConfig before = config;
        if (!Objects.equals(before.redisUrl(), next.redisUrl()) || !before.redisTimeout().equals(next.redisTimeout())) {
            LimitStore old = store;
            store = newStore(next);
            old.close();
        }
        config = next;
    }

    /** The budgets a request of {@code tenant} for {@code model} counts against; empty when none limits it. */
    public static List<Scope> scopes(TenantConfig tenant, String model) {
        List<Scope> scopes = new ArrayList<>(2);
        // one hash tag per tenant keeps a tenant's keys in one Redis Cluster slot
        String base = "igw:rl:{" + tenant.name() + "}";
        if (tenant.limits().any()) {
            scopes.add(new Scope(base, tenant.limits().requestsPerMinute(), tenant.limits().tokensPerMinute()));
        }
        TenantConfig.Limits perModel = tenant.limitsFor(model);
        if (perModel.any()) {
            scopes.add(new Scope(base + ":model:" + model, perModel.requestsPerMinute(), perModel.tokensPerMinute()));
        }
        return scopes;
    }

    /** What a request reserves: its prompt estimate and its completion budget. */
    public long cost(ParsedBody request) {
        return (long) request.promptTokensEstimate()
                + (request.maxTokens() >= 0 ? request.maxTokens() : config.defaultMaxTokens());
    }

    /**
     * Reserves {@code request}'s cost in {@code scopes} (not empty). Completes with the admission (admitted or
     * refused), or fails with a {@link GatewayError} when the store is unreachable and the limits fail closed.
     * The future may complete on the store's I/O thread.
     */
    public CompletableFuture<Admission> admit(TenantConfig tenant, List<Scope> scopes, ParsedBody request) {
        long cost = cost(request);
        RateLimitConfig c = config;
        return store.reserve(scopes, cost, c.window().toMillis()).handle((verdict, error) -> {
            if (error != null) {
                storeDown(error);
                meters.storeError(c.failOpen());
                if (c.failOpen()) {
                    return new Admission(scopes, null, 0);
                }
                throw GatewayError.rateLimitStoreUnavailable();
            }
            storeUp();
            Admission a = new Admission(scopes, verdict, cost);
            if (!verdict.admitted()) {
                meters.refused(tenant.name(), verdict.refused() == Verdict.Limit.REQUESTS ? "requests" : "tokens");
            }
            return a;
        });
    }

    /** The 429, in OpenAI's words, with the {@code Retry-After} of the window's end. */
    public static GatewayError refusal(TenantConfig tenant, Admission a) {
        boolean requests = a.refusedBy() == Verdict.Limit.REQUESTS;
        String what = requests ? "requests per min (RPM)" : "tokens per min (TPM)";
        String message = "Rate limit reached for tenant '" + tenant.name() + "' on " + what
                + (requests ? "" : ": Requested " + a.reserved())
                + ". Please try again in " + a.retryAfterSeconds() + "s.";
        return new GatewayError(requests ? GatewayError.Reason.REQUESTS_RATE_LIMITED
                : GatewayError.Reason.TOKENS_RATE_LIMITED, null, message,
                Map.of("Retry-After", Long.toString(a.retryAfterSeconds())));
    }

    private void storeDown(Throwable error) {
        if (storeUp.compareAndSet(true, false)) {
            LOG.warn("The rate-limit store is unreachable ({}); requests are {} until it returns", rootMessage(error),
                    config.failOpen() ? "admitted uncounted (failMode: open)" : "refused with 503 (failMode: closed)");
        }
    }

    private void storeUp() {
        if (storeUp.compareAndSet(false, true)) {
            LOG.info("The rate-limit store answers again; limits are counted");
        }
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getClass().getSimpleName() + ": " + t.getMessage();
    }

    /** Settles an admitted request: its real usage replaces its reservation. */
    @Override
    public void ended(RequestRecord record) {
        Admission a = record.get(RESERVATION);
        if (a == null || !a.settle()) {
            return;
        }
        long actual;
        if (record.inputTokens() >= 0 && record.outputTokens() >= 0) {
            actual = (long) record.inputTokens() + record.outputTokens();
        } else if (record.ending() == RequestRecord.Ending.REFUSED) {
            actual = 0; // the gateway answered itself: no model server spent a token
        } else {
            return; // usage unknown (a stream without usage, a broken response): the reservation stays counted
        }
        long delta = actual - a.reserved();
        if (delta != 0) {
            store.commit(a.scopes(), a.verdict().window(), delta);
        }
    }

    @Override
    public void close() {
        store.close();
    }
}
