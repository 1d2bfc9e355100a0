package io.inferencegateway.camel;

import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

import io.inferencegateway.auth.AuthFailure;
import io.inferencegateway.auth.Authenticator;
import io.inferencegateway.auth.ClusterToken;
import io.inferencegateway.auth.Identity;
import io.inferencegateway.config.GatewayConfig;
import io.inferencegateway.config.TenantConfig;
import io.inferencegateway.domain.GatewayError;
import io.inferencegateway.domain.Priority;
import io.inferencegateway.request.GatewayRequest;
import io.inferencegateway.request.IngressRoute;
import org.apache.camel.AsyncCallback;
import org.apache.camel.Exchange;
import org.apache.camel.support.AsyncProcessorSupport;

/**
 * The ingress's credential check while {@code spec.auth} is on (docs/auth.md): a route whose dispatch-table line says
 * {@code auth=none} stays open, {@code auth=metrics} and {@code auth=ui} follow {@code spec.auth.protectMetrics} and
 * {@code protectUi}; {@code auth=cluster} (the capacity summary) needs the cluster token when
 * {@code spec.cluster.tokenFile} is set, auth on or off ({@code 401 invalid_api_key}), else is {@code auth=metrics};
 * every other route needs a valid API key or JWT ({@code 401 invalid_api_key}) naming a configured
 * tenant ({@code 403 tenant_not_allowed}), which becomes the request's tenant. Asynchronous only while a JWKS is being
 * fetched; otherwise it completes in place.
 */
public class Authenticate extends AsyncProcessorSupport {

    private final Supplier<Authenticator> authenticator;
    private final Supplier<GatewayConfig> config;
    private final Supplier<ClusterToken> clusterToken;

    /**
     * @param authenticator the credential check as configured now, null while auth is off (a reload may change it)
     * @param config        the configuration now, for its tenants
     * @param clusterToken  the token of {@code spec.cluster.tokenFile} now, null while none is set
     */
    public Authenticate(Supplier<Authenticator> authenticator, Supplier<GatewayConfig> config,
            Supplier<ClusterToken> clusterToken) {
        this.authenticator = authenticator;
        this.config = config;
        this.clusterToken = clusterToken;
    }

    @Override
    public boolean process(Exchange exchange, AsyncCallback callback) {
        GatewayRequest request = GatewayExchange.request(exchange);
        if (request.route().auth() == IngressRoute.AuthRule.CLUSTER) {
            ClusterToken token = clusterToken.get();
            if (token != null) {
                if (!token.accepts(request.headers().get("authorization"))) {
                    exchange.setException(GatewayError.unauthenticated(
                            "This path needs the cluster token: send it as 'Authorization: Bearer <token>'"));
                }
                callback.done(true);
                return true;
            }
        }
        Authenticator auth = authenticator.get();
        if (auth == null || !request.route().auth().required(auth.config())) {
            callback.done(true);
            return true;
        }
        CompletableFuture<Identity> identity = auth.authenticate(request.headers().get("authorization"));
        return EventLoopResume.afterward(identity, exchange, callback, () -> settle(request, auth, identity));
    }

    /** Gives the request its tenant, or throws the 401 or 403 that refuses it. */
    private void settle(GatewayRequest request, Authenticator auth, CompletableFuture<Identity> identity) {
        Identity who;
        try {
            who = identity.join();
        } catch (CompletionException | CancellationException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            throw GatewayError.unauthenticated(cause instanceof AuthFailure f ? f.getMessage()
                    : "The credentials could not be checked");
        }
        GatewayConfig now = config.get();
        if (now.tenants().isEmpty()) {
            // no tenants configured: whoever authenticates may use everything, unlimited
            request.tenant(new TenantConfig(who.tenant(), null, null, Priority.STANDARD, TenantConfig.Limits.NONE,
                    List.of(), null));
            return;
        }
        TenantConfig tenant = now.tenant(who.tenant());
        if (tenant == null) {
            auth.unknownTenant();
            throw GatewayError.tenantNotAllowed();
        }
        request.tenant(tenant);
    }
}
