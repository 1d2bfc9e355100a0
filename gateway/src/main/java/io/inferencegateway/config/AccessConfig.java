package io.inferencegateway.config;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * Who may call the gateway ({@code spec.auth}); off by default. See docs/auth.md.
 *
 * @param enabled        false: anyone who reaches the gateway may call it (no tenant)
 * @param apiKeysFile    a file of hashed API keys, one {@code sha256:<hex> <tenant>} a line, re-read when it
 *                       changes; null: no API keys
 * @param jwt            JWT bearer tokens; null: none
 * @param protectMetrics whether {@code GET /metrics} needs credentials too
 * @param protectUi      whether the fleet page ({@code /ui}) needs credentials too
 */
public record AccessConfig(boolean enabled, Path apiKeysFile, JwtConfig jwt, boolean protectMetrics,
        boolean protectUi) {

    public static final AccessConfig OFF = new AccessConfig(false, null, null, false, false);

    /**
     * @param jwksUrl         where the signing keys are published (cached; fetched again on an unknown {@code kid})
     * @param staticJwks      a JWKS document given inline instead, or null
     * @param issuer          the required {@code iss}, or null for any
     * @param audience        the required {@code aud}, or null for any
     * @param tenantClaim     the claim that names the tenant
     * @param jwksCacheTtl    how long fetched keys are used before they are fetched again
     * @param clockSkew       how much {@code exp}/{@code nbf} may be off
     */
    public record JwtConfig(URI jwksUrl, String staticJwks, String issuer, String audience, String tenantClaim,
            Duration jwksCacheTtl, Duration clockSkew) {

        public static final String DEFAULT_TENANT_CLAIM = "tenant";
        public static final Duration DEFAULT_JWKS_CACHE_TTL = Duration.ofMinutes(5);
        public static final Duration DEFAULT_CLOCK_SKEW = Duration.ofSeconds(30);

        public JwtConfig {
            Objects.requireNonNull(tenantClaim, "tenantClaim");
        }
    }
}
