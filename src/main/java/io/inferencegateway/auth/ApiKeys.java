package io.inferencegateway.auth;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The API keys a gateway accepts, as SHA-256 hashes from a file ({@code spec.auth.apiKeys.file}, e.g. a mounted
 * Kubernetes Secret): one {@code sha256:<64 hex digits> <tenant>} a line, {@code #} starts a comment. The file is
 * read again within a second of a change (one timer thread, never the request path); a file that does not parse is
 * logged and the keys read before stay.
 *
 * <p>A presented key is hashed and its hash looked up. The lookup's timing can tell at most something about the
 * hash of a wrong guess, never about a valid key; the match is confirmed with a constant-time comparison.
 * Generated API keys carry enough entropy for an unsalted hash (docs/auth.md shows how to make and hash one).
 */
public final class ApiKeys implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ApiKeys.class);
    private static final String PREFIX = "sha256:";

    private final Path file;
    private final ScheduledExecutorService timer;
    private volatile Map<String, Entry> byHash = Map.of();
    private byte[] lastContent;

    private record Entry(byte[] hash, String tenant) {
    }

    private ApiKeys(Path file) {
        this.file = file;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "api-keys-watch");
            t.setDaemon(true);
            return t;
        });
    }

    /** Reads {@code file} now (it must parse) and watches it from then on. */
    public static ApiKeys watch(Path file) {
        ApiKeys keys = new ApiKeys(file);
        keys.reload(true);
        keys.timer.scheduleWithFixedDelay(() -> keys.reload(false), 1, 1, TimeUnit.SECONDS);
        return keys;
    }

    /** The tenant of {@code presentedKey}, or null when it is not a listed key. */
    public String tenantOf(String presentedKey) {
        byte[] hash = sha256(presentedKey);
        Entry e = byHash.get(HexFormat.of().formatHex(hash));
        return e != null && MessageDigest.isEqual(e.hash(), hash) ? e.tenant() : null;
    }

    /** How many keys are loaded. */
    public int size() {
        return byHash.size();
    }

    private synchronized void reload(boolean first) {
        byte[] content;
        try {
            content = Files.readAllBytes(file);
        } catch (IOException e) {
            if (first) {
                throw new IllegalArgumentException("cannot read spec.auth.apiKeys.file " + file + ": " + e.getMessage());
            }
            LOG.warn("Cannot read the API key file {} ({}); the keys read before stay", file, e.toString());
            return;
        }
        if (Arrays.equals(content, lastContent)) {
            return;
        }
        try {
            byHash = parse(new String(content, StandardCharsets.UTF_8));
            lastContent = content;
            LOG.info("API keys {} from {}: {} keys", first ? "read" : "re-read", file, byHash.size());
        } catch (IllegalArgumentException e) {
            if (first) {
                throw new IllegalArgumentException("spec.auth.apiKeys.file " + file + ": " + e.getMessage());
            }
            lastContent = content; // logged once per bad content
            LOG.warn("API key file {} not applied: {}; the keys read before stay", file, e.getMessage());
        }
    }

    static Map<String, Entry> parse(String text) {
        Map<String, Entry> out = new HashMap<>();
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
            if (out.put(hex, new Entry(digest, parts[1])) != null) {
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
        timer.shutdownNow();
    }
}
