package io.inferencegateway.camel;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import io.inferencegateway.config.TenantConfig;
import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.domain.RequestRecord;
import io.inferencegateway.ratelimit.Admission;
import io.inferencegateway.ratelimit.RateLimiter;
import io.inferencegateway.ratelimit.Scope;
import io.inferencegateway.runtime.Gateway;
import org.apache.camel.AsyncCallback;
import org.apache.camel.Exchange;
import org.apache.camel.support.AsyncProcessorSupport;

/**
 * The tenant's request and token limits (docs/auth.md): reserves the request's cost, answers {@code 429
 * rate_limit_exceeded} with {@code Retry-After} when it does not fit, and puts the {@code x-ratelimit-*} headers on
 * the response either way. The reservation rides on the request's record and is settled when the request ends
 * ({@link RateLimiter#ended}). Asynchronous: a count on Redis completes on Lettuce's thread and the exchange goes on
 * on its own event loop. A request no limit applies to passes at once.
 */
public class EnforceRateLimit extends AsyncProcessorSupport {

    private final Gateway gateway;

    public EnforceRateLimit(Gateway gateway) {
        this.gateway = gateway;
    }

    @Override
    public boolean process(Exchange exchange, AsyncCallback callback) {
        TenantConfig tenant = exchange.getProperty(GatewayExchange.TENANT, TenantConfig.class);
        InferenceRequest request = exchange.getProperty(GatewayExchange.REQUEST, InferenceRequest.class);
        List<Scope> scopes = tenant == null ? List.of() : RateLimiter.scopes(tenant, request.model());
        if (scopes.isEmpty()) {
            callback.done(true);
            return true;
        }
        CompletableFuture<Admission> admission = gateway.rateLimiter().admit(tenant, scopes, request);
        if (admission.isDone()) {
            settle(exchange, tenant, admission);
            callback.done(true);
            return true;
        }
        admission.whenComplete((a, e) -> EventLoopResume.resume(exchange, callback,
                () -> settle(exchange, tenant, admission)));
        return false;
    }

    private static void settle(Exchange exchange, TenantConfig tenant, CompletableFuture<Admission> future) {
        Admission a;
        try {
            a = future.join();
        } catch (CompletionException e) {
            exchange.setException(e.getCause() != null ? e.getCause() : e);
            return;
        }
        for (Map.Entry<String, String> h : a.headers().entrySet()) {
            EventLoopResume.responseHeader(exchange, h.getKey(), h.getValue());
        }
        if (!a.admitted()) {
            EventLoopResume.responseHeader(exchange, "Retry-After", Long.toString(a.retryAfterSeconds()));
            exchange.setException(RateLimiter.refusal(tenant, a));
            return;
        }
        RequestRecord record = exchange.getProperty(GatewayExchange.RECORD, RequestRecord.class);
        if (record != null) {
            record.admission(a);
        }
    }
}
