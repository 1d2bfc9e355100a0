package io.inferencegateway.auth;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.function.Supplier;

import io.inferencegateway.config.SecretFile;

/**
 * The cluster-to-cluster credential: one token in a file (a mounted Kubernetes Secret), what a global tier sends as
 * {@code Authorization: Bearer <token>} when it polls a cluster's capacity summary ({@code spec.cluster.tokenFile} on
 * the cluster's side). The file's content, surrounding whitespace stripped, is the token. It is read again when it
 * changes ({@link SecretFile}, never on the request path); a file that cannot be read or is empty is logged and the
 * token read before stays, so a rotation is: write the new token into both ends' Secrets.
 *
 * <p>A presented token is compared by its SHA-256 digest against the token's, in constant time
 * ({@link MessageDigest#isEqual}), so that neither its content nor its length shows in the time a refusal takes.
 */
public final class ClusterToken implements AutoCloseable {

    private final Supplier<String> token;
    private final AutoCloseable watch;

    /** A token read as {@code token} gives it (the gateway's watched secrets, config/Secrets). */
    public ClusterToken(Supplier<String> token) {
        this(token, () -> { });
    }

    private ClusterToken(Supplier<String> token, AutoCloseable watch) {
        this.token = token;
        this.watch = watch;
    }

    /**
     * Reads {@code file} now (it must hold a token) and watches it from then on, until {@link #close}.
     *
     * @param what the config path that names the file, for the errors ({@code spec.cluster.tokenFile})
     */
    public static ClusterToken watch(Path file, String what) {
        SecretFile secret = SecretFile.watch(file, what);
        return new ClusterToken(secret::value, secret);
    }

    /** Whether an {@code Authorization} header carries the token; false for a missing or malformed header. */
    public boolean accepts(String authorization) {
        String presented = Authenticator.bearer(authorization);
        if (presented == null) {
            return false;
        }
        return MessageDigest.isEqual(sha256(presented), sha256(token.get()));
    }

    /** The {@code Authorization} header value that carries the token ({@code Bearer <token>}), for a client. */
    public String authorization() {
        return "Bearer " + token.get();
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    @Override
    public void close() {
        try {
            watch.close();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
