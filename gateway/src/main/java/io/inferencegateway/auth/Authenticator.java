package io.inferencegateway.auth;

import java.util.concurrent.CompletableFuture;

import io.inferencegateway.config.AccessConfig;
import io.micrometer.core.instrument.Counter;

/**
 * Checks a request's {@code Authorization: Bearer <credential>} as OpenAI clients send it: a credential shaped like
 * a JWT (three dot-separated parts) is verified as one when JWT is configured, anything else is looked up as an API
 * key. Either way the result is the caller's tenant; nothing here logs or keeps a credential.
 */
public final class Authenticator implements AutoCloseable {

    private final AccessConfig config;
    private final ApiKeys apiKeys; // null: no API keys
    private final JwtVerifier jwt; // null: no JWT
    private final Counter[] failures; // by AuthFailure.Cause ordinal

    /** @param meters where its refusals are counted: one for the gateway's life */
    public Authenticator(AccessConfig config, AuthMeters meters) {
        this.config = config;
        this.failures = meters.failures();
        this.apiKeys = config.apiKeysFile() == null ? null : ApiKeys.watch(config.apiKeysFile());
        this.jwt = config.jwt() == null ? null : new JwtVerifier(config.jwt());
    }

    public AccessConfig config() {
        return config;
    }

    /** The caller's identity, or a failed future with an {@link AuthFailure}; done at once unless keys are fetched. */
    public CompletableFuture<Identity> authenticate(String authorization) {
        CompletableFuture<Identity> result = check(authorization);
        result.exceptionally(this::count);
        return result;
    }

    /** Counts a refusal of a credential that proved someone whose tenant is not served. */
    public void unknownTenant() {
        failures[AuthFailure.Cause.UNKNOWN_TENANT.ordinal()].increment();
    }

    private Identity count(Throwable error) {
        Throwable e = error instanceof java.util.concurrent.CompletionException && error.getCause() != null
                ? error.getCause() : error;
        failures[(e instanceof AuthFailure f ? f.kind() : AuthFailure.Cause.BAD_TOKEN).ordinal()].increment();
        return null;
    }

    private CompletableFuture<Identity> check(String authorization) {
        String credential = bearer(authorization);
        if (credential == null) {
            return CompletableFuture.failedFuture(new AuthFailure(AuthFailure.Cause.MISSING,
                    "You didn't provide an API key. Send it as 'Authorization: Bearer YOUR_KEY'"));
        }
        if (jwt != null && looksLikeJwt(credential)) {
            return jwt.verify(credential);
        }
        String tenant = apiKeys == null ? null : apiKeys.tenantOf(credential);
        if (tenant == null) {
            return CompletableFuture.failedFuture(new AuthFailure(AuthFailure.Cause.UNKNOWN_KEY,
                    "Incorrect API key provided"));
        }
        return CompletableFuture.completedFuture(new Identity(tenant, Identity.Method.API_KEY));
    }

    static String bearer(String authorization) {
        if (authorization == null || authorization.length() < 8
                || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return null;
        }
        String credential = authorization.substring(7).strip();
        return credential.isEmpty() ? null : credential;
    }

    private static boolean looksLikeJwt(String credential) {
        int first = credential.indexOf('.');
        return first > 0 && credential.indexOf('.', first + 1) > first + 1 && credential.startsWith("eyJ");
    }

    @Override
    public void close() {
        if (apiKeys != null) {
            apiKeys.close();
        }
    }
}
