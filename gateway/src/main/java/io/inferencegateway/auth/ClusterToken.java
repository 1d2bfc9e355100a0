package io.inferencegateway.auth;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.inferencegateway.config.MountedFileWatcher;

/**
 * The cluster-to-cluster credential: one token in a file (a mounted Kubernetes Secret), what a global tier sends as
 * {@code Authorization: Bearer <token>} when it polls a cluster's capacity summary ({@code spec.cluster.tokenFile} on
 * the cluster's side). The file's content, surrounding whitespace stripped, is the token. It is read again when it
 * changes (the gateway's one {@link MountedFileWatcher}, never the request path); a file that cannot be read or is
 * empty is logged and the token read before stays, so a rotation is: write the new token into both ends' Secrets.
 *
 * <p>A presented token is compared by its SHA-256 digest against the token's, in constant time
 * ({@link MessageDigest#isEqual}), so that neither its content nor its length shows in the time a refusal takes.
 */
public final class ClusterToken implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ClusterToken.class);

    private final Path file;
    private volatile Held held;
    private final MountedFileWatcher watcher;

    /** The token, its digest, and the header value a client sends. */
    private record Held(byte[] digest, String authorization) {
    }

    private ClusterToken(Path file, byte[] content, Held held) {
        this.file = file;
        this.held = held;
        this.watcher = MountedFileWatcher.start(file, "cluster token file", content, this::reread);
    }

    /**
     * Reads {@code file} now (it must hold a token) and watches it from then on.
     *
     * @param what the config path that names the file, for the errors ({@code spec.cluster.tokenFile})
     */
    public static ClusterToken watch(Path file, String what) {
        byte[] content;
        try {
            content = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + what + " " + file + ": " + e.getMessage());
        }
        Held held = parse(content);
        if (held == null) {
            throw new IllegalArgumentException(what + " " + file + " is empty");
        }
        return new ClusterToken(file, content, held);
    }

    /** Whether an {@code Authorization} header carries the token; false for a missing or malformed header. */
    public boolean accepts(String authorization) {
        String presented = Authenticator.bearer(authorization);
        if (presented == null) {
            return false;
        }
        return MessageDigest.isEqual(sha256(presented.getBytes(StandardCharsets.UTF_8)), held.digest());
    }

    /** The {@code Authorization} header value that carries the token ({@code Bearer <token>}), for a client. */
    public String authorization() {
        return held.authorization();
    }

    private void reread(byte[] content) {
        Held next = parse(content);
        if (next == null) {
            LOG.warn("cluster token file {} is empty; the token read before stays", file);
            return;
        }
        held = next;
        LOG.info("cluster token re-read from {}", file);
    }

    private static Held parse(byte[] content) {
        String token = new String(content, StandardCharsets.UTF_8).strip();
        if (token.isEmpty()) {
            return null;
        }
        return new Held(sha256(token.getBytes(StandardCharsets.UTF_8)), "Bearer " + token);
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    @Override
    public void close() {
        watcher.close();
    }
}
