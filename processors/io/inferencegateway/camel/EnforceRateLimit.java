package io.inferencegateway.camel;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import io.inferencegateway.config.TenantConfig;
import io.inferencegateway.ratelimit.Admission;
import io.inferencegateway.ratelimit.RateLimiter;
import io.inferencegateway.ratelimit.Scope;
import io.inferencegateway.request.GatewayRequest;
import org.apache.camel.AsyncCallback;
import org.apache.camel.Exchange;
import org.apache.camel.support.AsyncProcessorSupport;

/**
 * The tenant's request and token limits (docs/auth.md): reserves the request's cost, answers {@code 429
 * rate_limit_exceeded} with {@code Retry-After} when it does not fit, and puts the {@code x-ratelimit-*} headers on
 * the response either way. The reservation is settled when the request ends ({@link RateLimiter#ended}).
 * Asynchronous: a count on Redis completes on Lettuce's thread and the exchange goes on on its own event loop. A
 * request no limit applies to passes at once.
 */
public class EnforceRateLimit extends AsyncProcessorSupport {

    private final RateLimiter rateLimiter;

    public EnforceRateLimit(RateLimiter rateLimiter) {
        this.rateLimiter = rateLimiter;
    }

    @Override
    public boolean process(Exchange exchange, AsyncCallback callback) {
        GatewayRequest request = GatewayExchange.request(exchange);
        TenantConfig tenant = request.tenant();
        List<Scope> scopes = tenant == null ? List.of() : RateLimiter.scopes(tenant, request.model());
        if (scopes.isEmpty()) {
            callback.done(true);
            return true;
        }
        CompletableFuture<Admission> admission = rateLimiter.admit(tenant, scopes, request.parsedBody());
        return EventLoopResume.afterward(admission, exchange, callback, () -> settle(request, tenant, admission));
    }

    /** Puts the limits' headers on the response and keeps the reservation, or throws the 429 (or 503) refusal. */
    private static void settle(GatewayRequest request, TenantConfig tenant, CompletableFuture<Admission> future) {
        Admission a;
        try {
            a = future.join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : e;
        }
        a.headers().forEach(request::responseHeader);
        if (!a.admitted()) {
            throw RateLimiter.refusal(tenant, a);
        }
        request.record().put(RateLimiter.RESERVATION, a);
    }
}
