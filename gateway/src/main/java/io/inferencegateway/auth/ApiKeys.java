package io.inferencegateway.auth;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.inferencegateway.config.MountedFileWatcher;

/**
 * The API keys a gateway accepts, as SHA-256 hashes from a file ({@code spec.auth.apiKeys.file}, e.g. a mounted
 * Kubernetes Secret): one {@code sha256:<64 hex digits> <tenant>} a line, {@code #} starts a comment. The file is
 * read again when it changes, a Secret's symlink swap included (a {@link MountedFileWatcher}, as for the config file;
 * never the request path); a file that cannot be read or does not parse is logged and the keys read before stay.
 *
 * <p>A presented key is hashed and its hash looked up. The lookup's timing can tell at most something about the
 * hash of a wrong guess, never about a valid key; the match is confirmed with a constant-time comparison.
 * Generated API keys carry enough entropy for an unsalted hash (docs/auth.md shows how to make and hash one).
 */
public final class ApiKeys implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ApiKeys.class);
    private static final String PREFIX = "sha256:";

    private final Path file;
    private volatile Map<String, KeyEntry> byHash;
    private final MountedFileWatcher watcher;

    private record KeyEntry(byte[] hash, String tenant) {
    }

    private ApiKeys(Path file, byte[] content, Map<String, KeyEntry> byHash) {
        this.file = file;
        this.byHash = byHash;
        this.watcher = MountedFileWatcher.start(file, "API key file", content, this::reread);
    }

    /** Reads {@code file} now (it must parse) and watches it from then on. */
    public static ApiKeys watch(Path file) {
        byte[] content;
        try {
            content = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read spec.auth.apiKeys.file " + file + ": " + e.getMessage());
        }
        Map<String, KeyEntry> byHash;
        try {
            byHash = parse(new String(content, StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("spec.auth.apiKeys.file " + file + ": " + e.getMessage());
        }
        LOG.info("API keys read from {}: {} keys", file, byHash.size());
        return new ApiKeys(file, content, byHash);
    }

    /** The tenant of {@code presentedKey}, or null when it is not a listed key. */
    public String tenantOf(String presentedKey) {
        byte[] hash = sha256(presentedKey);
        KeyEntry e = byHash.get(HexFormat.of().formatHex(hash));
        return e != null && MessageDigest.isEqual(e.hash(), hash) ? e.tenant() : null;
    }

    /** How many keys are loaded. */
    public int size() {
        return byHash.size();
    }

    /** A changed file from the watcher: its keys replace the ones read before, unless it does not parse. */
    private void reread(byte[] content) {
        try {
            byHash = parse(new String(content, StandardCharsets.UTF_8));
            LOG.info("API keys re-read from {}: {} keys", file, byHash.size());
        } catch (IllegalArgumentException e) {
            LOG.warn("API key file {} not applied: {}; the keys read before stay", file, e.getMessage());
        }
    }

    static Map<String, KeyEntry> parse(String text) {
        Map<String, KeyEntry> out = new HashMap<>();
        String[] lines = text.split("\n", -1);
        for (int n = 0; n < lines.length; n++) {
            String line = lines[n];
            int hash = line.indexOf('#');
            line = (hash < 0 ? line : line.substring(0, hash)).strip();
            if (line.isEmpty()) {
                continue;
            }
            String[] parts = line.split("\\s+");
            if (parts.length != 2 || !parts[0].startsWith(PREFIX) || parts[0].length() != PREFIX.length() + 64) {
                throw new IllegalArgumentException("line " + (n + 1) + " must be 'sha256:<64 hex digits> <tenant>'");
            }
            String hex = parts[0].substring(PREFIX.length()).toLowerCase(java.util.Locale.ROOT);
            byte[] digest;
            try {
                digest = HexFormat.of().parseHex(hex);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("line " + (n + 1) + " has a hash that is not hex");
            }
            if (out.put(hex, new KeyEntry(digest, parts[1])) != null) {
                throw new IllegalArgumentException("line " + (n + 1) + " repeats a key");
            }
        }
        return Map.copyOf(out);
    }

    /** The key file's line for {@code key} (not stored, only its hash) and the tenant it names, with its newline. */
    public static String line(String key, String tenant) {
        return PREFIX + HexFormat.of().formatHex(sha256(key)) + " " + tenant + "\n";
    }

    /** SHA-256 of the key's UTF-8 bytes, as {@code sha256sum} computes it. */
    public static byte[] sha256(String key) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        watcher.close();
    }
}
