package io.inferencegateway.auth;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.text.ParseException;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.nimbusds.jwt.proc.BadJWTException;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import com.nimbusds.jwt.proc.ExpiredJWTException;

import io.inferencegateway.config.AccessConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Verifies JWT bearer tokens with Nimbus JOSE + JWT: the signature against the configured keys (a JWKS URL or an
 * inline JWKS), {@code exp} and {@code nbf} (with some clock skew), {@code iss} and {@code aud} when configured, and
 * the tenant claim. Verification is CPU work on the caller's thread; fetching keys never is: the key set is fetched
 * with the JDK's asynchronous HTTP client, again after {@code jwksCacheTtl}, and at once (at most once a second)
 * when a token names a {@code kid} the cached set does not hold, so a rotated key is picked up on its first use.
 */
public final class JwtVerifier {

    private static final Logger LOG = LoggerFactory.getLogger(JwtVerifier.class);
    private static final long MIN_REFETCH_NANOS = Duration.ofSeconds(1).toNanos();
    private static final Set<JWSAlgorithm> ALGORITHMS = Set.of(JWSAlgorithm.RS256, JWSAlgorithm.RS384,
            JWSAlgorithm.RS512, JWSAlgorithm.PS256, JWSAlgorithm.PS384, JWSAlgorithm.PS512, JWSAlgorithm.ES256,
            JWSAlgorithm.ES384, JWSAlgorithm.ES512, JWSAlgorithm.EdDSA);

    private final AccessConfig.JwtConfig config;
    private final HttpClient http;
    private volatile Keys keys;
    private volatile CompletableFuture<Keys> fetching;
    private volatile long lastFetchStartNanos;

    /** A key set and the processor that checks tokens against it. */
    private record Keys(JWKSet set, DefaultJWTProcessor<SecurityContext> processor, long fetchedNanos) {
    }

    public JwtVerifier(AccessConfig.JwtConfig config) {
        this.config = config;
        if (config.staticJwks() != null) {
            try {
                this.keys = keys(JWKSet.parse(config.staticJwks()));
            } catch (ParseException e) {
                throw new IllegalArgumentException("spec.auth.jwt.jwks is not a JWKS document: " + e.getMessage());
            }
            this.http = null;
        } else {
            this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
            refetch();
        }
    }

    /** The tenant the token names, once it is verified; fails with an {@link AuthFailure}. */
    public CompletableFuture<Identity> verify(String token) {
        SignedJWT jwt;
        try {
            jwt = SignedJWT.parse(token);
        } catch (ParseException e) {
            return CompletableFuture.failedFuture(new AuthFailure(AuthFailure.Cause.BAD_TOKEN, "The bearer token is "
                    + "not a valid JWT"));
        }
        Keys current = keys;
        String kid = jwt.getHeader().getKeyID();
        boolean known = current != null && (kid == null ? !current.set().getKeys().isEmpty()
                : current.set().getKeyByKeyId(kid) != null);
        if (http != null && (current == null || stale(current))) {
            refetch();
        }
        if (known || http == null) {
            try {
                return CompletableFuture.completedFuture(check(jwt, current));
            } catch (AuthFailure e) {
                return CompletableFuture.failedFuture(e);
            }
        }
        CompletableFuture<Keys> next = refetch();
        return next.handle((fetched, error) -> check(jwt, fetched != null ? fetched : keys));
    }

    private boolean stale(Keys k) {
        return System.nanoTime() - k.fetchedNanos() > config.jwksCacheTtl().toNanos();
    }

    private Identity check(SignedJWT jwt, Keys k) {
        if (k == null) {
            throw new AuthFailure(AuthFailure.Cause.BAD_TOKEN, "The token's signing keys are not available yet");
        }
        JWTClaimsSet claims;
        try {
            claims = k.processor().process(jwt, null);
        } catch (ExpiredJWTException e) {
            throw new AuthFailure(AuthFailure.Cause.EXPIRED, "The bearer token has expired");
        } catch (BadJWTException e) {
            String m = String.valueOf(e.getMessage());
            if (m.contains("iss") || m.contains("aud") || m.contains("audience") || m.contains("issuer")) {
                throw new AuthFailure(AuthFailure.Cause.WRONG_ISSUER_OR_AUDIENCE,
                        "The bearer token's issuer or audience is not accepted");
            }
            if (m.contains("before use time") || m.contains("nbf")) {
                throw new AuthFailure(AuthFailure.Cause.EXPIRED, "The bearer token is not valid yet");
            }
            throw new AuthFailure(AuthFailure.Cause.BAD_TOKEN, "The bearer token's claims are not accepted");
        } catch (BadJOSEException | JOSEException e) {
            throw new AuthFailure(AuthFailure.Cause.BAD_TOKEN, "The bearer token's signature does not verify");
        }
        Object tenant = claims.getClaim(config.tenantClaim());
        if (!(tenant instanceof String name) || name.isBlank()) {
            throw new AuthFailure(AuthFailure.Cause.NO_TENANT, "The bearer token has no '" + config.tenantClaim()
                    + "' claim naming a tenant");
        }
        return new Identity(name, Identity.Method.JWT);
    }

    private synchronized CompletableFuture<Keys> refetch() {
        CompletableFuture<Keys> inFlight = fetching;
        if (inFlight != null && !inFlight.isDone()) {
            return inFlight;
        }
        long now = System.nanoTime();
        if (inFlight != null && now - lastFetchStartNanos < MIN_REFETCH_NANOS) {
            return inFlight; // an unknown kid does not make the gateway hammer the key server
        }
        lastFetchStartNanos = now;
        URI url = config.jwksUrl();
        CompletableFuture<Keys> f = http.sendAsync(HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(5))
                        .header("Accept", "application/json").build(), HttpResponse.BodyHandlers.ofString())
                .thenApply(response -> {
                    if (response.statusCode() != 200) {
                        throw new IllegalStateException("HTTP " + response.statusCode());
                    }
                    try {
                        Keys k = keys(JWKSet.parse(response.body()));
                        keys = k;
                        return k;
                    } catch (ParseException e) {
                        throw new IllegalStateException("not a JWKS document: " + e.getMessage());
                    }
                });
        f.whenComplete((k, e) -> {
            if (e != null) {
                LOG.warn("Cannot fetch the JWKS from {}: {}; the keys fetched before stay", url, e.toString());
            }
        });
        fetching = f;
        return f;
    }

    private Keys keys(JWKSet set) {
        DefaultJWTProcessor<SecurityContext> p = new DefaultJWTProcessor<>();
        p.setJWSKeySelector(new JWSVerificationKeySelector<>(new HashSet<>(ALGORITHMS), new ImmutableJWKSet<>(set)));
        Set<String> required = new HashSet<>(Set.of("exp"));
        JWTClaimsSet.Builder exact = new JWTClaimsSet.Builder();
        if (config.issuer() != null) {
            exact.issuer(config.issuer());
        }
        DefaultJWTClaimsVerifier<SecurityContext> verifier = new DefaultJWTClaimsVerifier<>(
                config.audience() == null ? null : config.audience(), exact.build(), required);
        verifier.setMaxClockSkew((int) config.clockSkew().toSeconds());
        p.setJWTClaimsSetVerifier(verifier);
        return new Keys(set, p, System.nanoTime());
    }
}
