package io.inferencegateway.config;

import java.nio.file.Path;
import java.util.Map;

import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.Price;

/**
 * Where a global tier's pool sends requests (docs/global.md): a remote cluster gateway, or an external
 * OpenAI-compatible provider. Its {@link #address} is the endpoint the pool's scheduler sees, as a pod's is.
 *
 * @param name       the name config and metrics use
 * @param kind       a cluster (publishes its capacity summary) or a provider (overflow and failover only)
 * @param address    host and port of its URL
 * @param https      whether its URL is {@code https}
 * @param basePath   its URL's path: a cluster's is put before the client's path; a provider's replaces the
 *                   client's {@code /v1} (a provider's base URL is what an OpenAI SDK takes, e.g. {@code .../v1})
 * @param region     its region (proximity, residency, home-region policy)
 * @param price      what a million tokens served there cost
 * @param apiKeyFile a provider's API key file, sent as {@code Authorization: Bearer}; null: the client's own header
 *                   is forwarded (clusters, and providers that need no key)
 * @param models     a provider's names for the local model and adapter names it serves; empty for a cluster (the
 *                   same names)
 */
public record TargetConfig(String name, Kind kind, Endpoint address, boolean https, String basePath, String region,
        Price price, Path apiKeyFile, Map<String, String> models) {

    /** What a target is. */
    public enum Kind {
        CLUSTER, PROVIDER;

        /** Its name in metrics and logs. */
        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    public TargetConfig {
        models = Map.copyOf(models);
        basePath = basePath == null ? "" : basePath;
        price = price == null ? Price.FREE : price;
    }

    public boolean provider() {
        return kind == Kind.PROVIDER;
    }

    /** Whether it serves the local model (or adapter) named {@code model}: a cluster serves any its summary lists. */
    public boolean serves(String model) {
        return kind == Kind.CLUSTER || models.containsKey(model);
    }

    /** Its name for the local {@code model}: a provider's own name, else the same. */
    public String remoteModel(String model) {
        return models.getOrDefault(model, model);
    }

    /**
     * The request URI to send it for the client's {@code uri}: a cluster's base path before it; a provider's base path
     * instead of the client's leading {@code /v1}.
     */
    public String upstreamUri(String uri) {
        if (basePath.isEmpty()) {
            return uri;
        }
        if (kind == Kind.PROVIDER && (uri.startsWith("/v1/") || uri.equals("/v1"))) {
            return basePath + uri.substring(3);
        }
        return basePath + uri;
    }
}
