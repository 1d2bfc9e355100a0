package io.inferencegateway.ratelimit;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * The meters of the tenants' rate limits (docs/auth.md): whether the store answers, the requests it could not count
 * by what the fail mode did with them, and the 429s by tenant and limit (tenants come from the config, so the series
 * stay bounded). The store's and the fail mode's counters are resolved when bound; a refusal's on its first time.
 */
public final class RateLimitMeters implements MeterBinder {

    private final Map<String, Counter> refusals = new ConcurrentHashMap<>();
    private volatile BooleanSupplier storeUp = () -> true;
    private MeterRegistry registry;
    private Counter storeErrorsAdmitted;
    private Counter storeErrorsRefused;

    @Override
    public void bindTo(MeterRegistry registry) {
        this.registry = registry;
        Gauge.builder("inference_gateway_rate_limit_store_up", this, m -> m.storeUp.getAsBoolean() ? 1 : 0)
                .description("1 while the rate-limit store answers (always 1 for the in-memory store)")
                .register(registry);
        storeErrorsAdmitted = storeErrors("admitted");
        storeErrorsRefused = storeErrors("refused");
    }

    private Counter storeErrors(String outcome) {
        return Counter.builder("inference_gateway_rate_limit_store_errors_total")
                .description("Requests the rate-limit store could not count, by what the fail mode did with them")
                .tag("outcome", outcome).register(registry);
    }

    /** What the store's gauge reads: the limiter's own view of its store, read when Prometheus scrapes. */
    void storeUp(BooleanSupplier up) {
        storeUp = up;
    }

    /** A request the store could not count, admitted uncounted ({@code failMode: open}) or refused with 503. */
    void storeError(boolean admitted) {
        (admitted ? storeErrorsAdmitted : storeErrorsRefused).increment();
    }

    /** A 429 of {@code tenant}'s {@code limit} ({@code requests} or {@code tokens}). */
    void refused(String tenant, String limit) {
        refusals.computeIfAbsent(tenant + '\n' + limit, k -> Counter
                .builder("inference_gateway_rate_limited_total")
                .description("Requests refused with 429 by a tenant's limit")
                .tag("tenant", tenant).tag("limit", limit).register(registry)).increment();
    }
}
