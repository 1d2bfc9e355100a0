package io.inferencegateway.request;

import java.util.Objects;

import io.inferencegateway.config.AccessConfig;

/**
 * What one route of the ingress is, as its line of the dispatch table says (routes/gateway-beans.camel.yaml): the
 * {@code direct:} route that serves it and its policy as data, so that no step of the request path knows a route id or
 * a path.
 *
 * @param id                    the {@code direct:} route that serves the path and method
 * @param auth                  whether a caller needs credentials while {@code spec.auth} is on
 * @param answeredWhileDraining still answered once the gateway refuses new work (probes, {@code /metrics})
 * @param operation             the OpenTelemetry GenAI operation name of the route's traces ({@code chat},
 *                              {@code text_completion}, {@code embeddings}), or null
 * @param streamUsage           whether a pool's {@code streamUsage} asks this route's streams for their usage (the
 *                              paths that know {@code stream_options})
 */
public record IngressRoute(String id, AuthRule auth, boolean answeredWhileDraining, String operation,
        boolean streamUsage) {

    /** Whether a route needs credentials while {@code spec.auth} is on. */
    public enum AuthRule {
        /** Never (the probes). */
        NONE,
        /** Credentials that name a tenant: every route that says nothing else. */
        REQUIRED,
        /** As {@code spec.auth.protectMetrics} says. */
        METRICS,
        /** As {@code spec.auth.protectUi} says. */
        UI,
        /**
         * The cluster-to-cluster token when {@code spec.cluster.tokenFile} is set (checked whether or not
         * {@code spec.auth} is on); otherwise as {@code spec.auth.protectMetrics} says (the capacity summary).
         */
        CLUSTER;

        /** Whether a caller of such a route must authenticate under {@code access}. */
        public boolean required(AccessConfig access) {
            return switch (this) {
                case NONE -> false;
                case REQUIRED -> true;
                case METRICS, CLUSTER -> access.protectMetrics();
                case UI -> access.protectUi();
            };
        }
    }

    public IngressRoute {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(auth, "auth");
    }

    /** A route that needs credentials, is refused while draining and has no trace operation nor stream usage. */
    public static IngressRoute of(String id) {
        return new IngressRoute(id, AuthRule.REQUIRED, false, null, false);
    }
}
