package io.inferencegateway.config;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.inferencegateway.domain.LatencyTargets;
import io.inferencegateway.domain.Residency;
import io.inferencegateway.domain.Priority;

/** Validates {@code spec.auth}, {@code spec.tenants} and {@code spec.rateLimits} for {@link SpecValidation}. */
final class AccessValidation {

    private AccessValidation() {
    }

    static AccessConfig auth(InferenceGatewayConfig.AuthSpec a) throws InvalidConfigException {
        if (a == null || Boolean.FALSE.equals(a.enabled())) {
            return AccessConfig.OFF;
        }
        Path keys = null;
        if (a.apiKeys() != null) {
            keys = Path.of(ConfigChecks.required(a.apiKeys().file(), "spec.auth.apiKeys.file"));
        }
        AccessConfig.JwtConfig jwt = a.jwt() == null ? null : jwt(a.jwt());
        if (keys == null && jwt == null) {
            throw new InvalidConfigException("spec.auth needs apiKeys or jwt (or enabled: false)");
        }
        return new AccessConfig(true, keys, jwt, Boolean.TRUE.equals(a.protectMetrics()),
                Boolean.TRUE.equals(a.protectUi()));
    }

    private static AccessConfig.JwtConfig jwt(InferenceGatewayConfig.Jwt j) throws InvalidConfigException {
        String at = "spec.auth.jwt";
        boolean url = j.jwksUrl() != null && !j.jwksUrl().isBlank();
        boolean inline = j.jwks() != null && !j.jwks().isBlank();
        if (url == inline) {
            throw new InvalidConfigException(at + " needs exactly one of jwksUrl and jwks (static keys)");
        }
        URI jwksUrl = url ? ConfigChecks.httpUrl(j.jwksUrl(), at + ".jwksUrl") : null;
        String claim = j.tenantClaim() == null ? AccessConfig.JwtConfig.DEFAULT_TENANT_CLAIM
                : ConfigChecks.required(j.tenantClaim(), at + ".tenantClaim");
        Duration ttl = ConfigChecks.duration(j.jwksCacheTtl(), at + ".jwksCacheTtl",
                AccessConfig.JwtConfig.DEFAULT_JWKS_CACHE_TTL);
        Duration skew = j.clockSkew() == null ? AccessConfig.JwtConfig.DEFAULT_CLOCK_SKEW
                : ConfigChecks.duration(j.clockSkew(), at + ".clockSkew", null);
        return new AccessConfig.JwtConfig(jwksUrl, inline ? j.jwks().strip() : null, blankToNull(j.issuer()),
                blankToNull(j.audience()), claim, ttl, skew);
    }

    static List<TenantConfig> tenants(List<InferenceGatewayConfig.Tenant> raw, Map<String, String> servedNames,
            GlobalConfig global) throws InvalidConfigException {
        if (raw == null) {
            return List.of();
        }
        Map<String, String> names = new HashMap<>();
        List<TenantConfig> out = new ArrayList<>();
        for (int i = 0; i < raw.size(); i++) {
            String at = "spec.tenants[" + i + "]";
            InferenceGatewayConfig.Tenant t = raw.get(i);
            if (t == null) {
                throw new InvalidConfigException(at + " must not be empty");
            }
            String name = ConfigChecks.required(t.name(), at + ".name");
            if (!name.matches("[A-Za-z0-9._-]{1,64}")) {
                throw new InvalidConfigException(at + ".name must be 1..64 letters, digits, '.', '_' or '-', got '"
                        + name + "'");
            }
            String previous = names.putIfAbsent(name, at + ".name");
            if (previous != null) {
                throw new InvalidConfigException(at + ".name '" + name + "' duplicates " + previous);
            }
            Set<String> models = served(t.models(), at + ".models", servedNames);
            Set<String> adapters = served(t.adapters(), at + ".adapters", servedNames);
            int priority = Priority.STANDARD;
            if (t.priority() != null) {
                Integer parsed = Priority.parse(t.priority());
                if (parsed == null) {
                    throw new InvalidConfigException(at + ".priority must be critical, standard, sheddable or an "
                            + "integer within +-" + Priority.LIMIT + "; got '" + t.priority() + "'");
                }
                priority = parsed;
            }
            TenantConfig.Limits limits = t.limits() == null ? TenantConfig.Limits.NONE
                    : limits(t.limits().requestsPerMinute(), t.limits().tokensPerMinute(), at + ".limits");
            List<TenantConfig.ModelLimits> modelLimits = new ArrayList<>();
            if (t.modelLimits() != null) {
                Set<String> seen = new LinkedHashSet<>();
                for (int m = 0; m < t.modelLimits().size(); m++) {
                    String mat = at + ".modelLimits[" + m + "]";
                    InferenceGatewayConfig.ModelLimitsSpec ml = t.modelLimits().get(m);
                    if (ml == null) {
                        throw new InvalidConfigException(mat + " must not be empty");
                    }
                    String model = ConfigChecks.required(ml.model(), mat + ".model");
                    if (!servedNames.containsKey(model)) {
                        throw new InvalidConfigException(mat + ".model '" + model + "' is not a served model or adapter");
                    }
                    if (!seen.add(model)) {
                        throw new InvalidConfigException(mat + ".model '" + model + "' is listed twice");
                    }
                    modelLimits.add(new TenantConfig.ModelLimits(model,
                            limits(ml.requestsPerMinute(), ml.tokensPerMinute(), mat)));
                }
            }
            LatencyTargets slo = t.slo() == null ? LatencyTargets.NONE
                    : SloValidation.targets(at + ".slo", t.slo().ttft(), t.slo().tpot());
            Residency residency = t.regions() == null && t.providers() == null ? Residency.ANY
                    : new Residency(GlobalValidation.regions(at + ".regions", t.regions(), global),
                            !Boolean.FALSE.equals(t.providers()));
            out.add(new TenantConfig(name, models, adapters, priority, limits, modelLimits, slo, residency));
        }
        return out;
    }

    private static Set<String> served(List<String> list, String at, Map<String, String> servedNames)
            throws InvalidConfigException {
        if (list == null) {
            return null;
        }
        Set<String> out = new LinkedHashSet<>();
        for (int i = 0; i < list.size(); i++) {
            String name = ConfigChecks.required(list.get(i), at + "[" + i + "]");
            if (!servedNames.containsKey(name)) {
                throw new InvalidConfigException(at + "[" + i + "] '" + name + "' is not a served model or adapter");
            }
            out.add(name);
        }
        return out;
    }

    private static TenantConfig.Limits limits(Long rpm, Long tpm, String at) throws InvalidConfigException {
        return new TenantConfig.Limits(nonNegative(rpm, at + ".requestsPerMinute"),
                nonNegative(tpm, at + ".tokensPerMinute"));
    }

    private static long nonNegative(Long value, String path) throws InvalidConfigException {
        if (value == null) {
            return 0;
        }
        if (value < 0) {
            throw new InvalidConfigException(path + " must be 0 (unlimited) or more, got " + value);
        }
        return value;
    }

    static RateLimitConfig rateLimits(InferenceGatewayConfig.RateLimits r) throws InvalidConfigException {
        RateLimitConfig d = RateLimitConfig.DEFAULT;
        if (r == null) {
            return d;
        }
        URI url = null;
        boolean failOpen = d.failOpen();
        Duration timeout = d.redisTimeout();
        if (r.redis() != null) {
            String at = "spec.rateLimits.redis";
            url = ConfigChecks.redisUri(ConfigChecks.required(r.redis().url(), at + ".url"), at + ".url");
            if (r.redis().failMode() != null) {
                String mode = r.redis().failMode().strip();
                if (!mode.equals("open") && !mode.equals("closed")) {
                    throw new InvalidConfigException(at + ".failMode must be open or closed, got '" + mode + "'");
                }
                failOpen = mode.equals("open");
            }
            timeout = ConfigChecks.duration(r.redis().timeout(), at + ".timeout", timeout);
        }
        int maxTokens = d.defaultMaxTokens();
        if (r.defaultMaxTokens() != null) {
            maxTokens = r.defaultMaxTokens();
            if (maxTokens < 1) {
                throw new InvalidConfigException("spec.rateLimits.defaultMaxTokens must be at least 1, got " + maxTokens);
            }
        }
        Duration window = ConfigChecks.duration(r.window(), "spec.rateLimits.window", d.window());
        if (window.toMillis() < 1000) {
            throw new InvalidConfigException("spec.rateLimits.window must be at least 1s, got '" + r.window() + "'");
        }
        return new RateLimitConfig(url, failOpen, timeout, maxTokens, window);
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }
}
