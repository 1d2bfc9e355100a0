package io.inferencegateway.camel;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import io.inferencegateway.auth.AuthFailure;
import io.inferencegateway.auth.Authenticator;
import io.inferencegateway.auth.Identity;
import io.inferencegateway.config.TenantConfig;
import io.inferencegateway.domain.GatewayError;
import io.inferencegateway.runtime.Gateway;
import io.netty.handler.codec.http.HttpHeaders;
import org.apache.camel.AsyncCallback;
import org.apache.camel.Exchange;
import org.apache.camel.support.AsyncProcessorSupport;

/**
 * The ingress's credential check while {@code spec.auth} is on (docs/auth.md): {@code /health} and {@code /ready}
 * stay open, {@code /metrics} and {@code /ui} unless configured otherwise; every other route needs a valid API key or
 * JWT ({@code 401 invalid_api_key}) naming a configured tenant ({@code 403 tenant_not_allowed}). Sets
 * {@link GatewayExchange#TENANT}. Asynchronous only while a JWKS is being fetched; otherwise it completes in place.
 */
public class Authenticate extends AsyncProcessorSupport {

    private final Gateway gateway;

    public Authenticate(Gateway gateway) {
        this.gateway = gateway;
    }

    @Override
    public boolean process(Exchange exchange, AsyncCallback callback) {
        Authenticator auth = gateway.authenticator();
        if (auth == null || open(exchange.getProperty(GatewayExchange.ROUTE, String.class), auth)) {
            callback.done(true);
            return true;
        }
        HttpHeaders headers = exchange.getProperty(GatewayExchange.REQUEST_HEADERS, HttpHeaders.class);
        CompletableFuture<Identity> identity = auth.authenticate(headers == null ? null : headers.get("authorization"));
        if (identity.isDone()) {
            try {
                settle(exchange, auth, identity.join(), null);
            } catch (RuntimeException e) {
                settle(exchange, auth, null, e);
            }
            callback.done(true);
            return true;
        }
        identity.whenComplete((who, error) -> EventLoopResume.resume(exchange, callback,
                () -> settle(exchange, auth, who, error)));
        return false;
    }

    private static boolean open(String route, Authenticator auth) {
        if (route == null) {
            return false;
        }
        return switch (route) {
            case "liveness", "readiness" -> true;
            case "gateway-metrics" -> !auth.config().protectMetrics();
            case "fleet-page", "fleet-state" -> !auth.config().protectUi();
            default -> false;
        };
    }

    private void settle(Exchange exchange, Authenticator auth, Identity who, Throwable error) {
        if (error != null) {
            Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
            EventLoopResume.responseHeader(exchange, "WWW-Authenticate", "Bearer");
            exchange.setException(GatewayError.unauthenticated(cause instanceof AuthFailure f ? f.getMessage()
                    : "The credentials could not be checked"));
            return;
        }
        TenantConfig tenant;
        if (gateway.config().tenants().isEmpty()) {
            // no tenants configured: whoever authenticates may use everything, unlimited
            tenant = new TenantConfig(who.tenant(), null, null, io.inferencegateway.domain.Priority.STANDARD,
                    TenantConfig.Limits.NONE, java.util.List.of());
        } else {
            tenant = gateway.config().tenant(who.tenant());
            if (tenant == null) {
                auth.unknownTenant();
                exchange.setException(GatewayError.tenantNotAllowed());
                return;
            }
        }
        exchange.setProperty(GatewayExchange.TENANT, tenant);
    }
}
