package io.inferencegateway.ratelimit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.resource.ClientResources;

/**
 * A Lua script the gateway runs on Redis (the rate limits', the rollouts'): read once from the classpath, sent by its
 * SHA-1, and in full when Redis does not know it (the first call, or after Redis restarted).
 */
public final class RedisScript {

    private final String text;
    private final String sha;

    private RedisScript(String text) {
        this.text = text;
        this.sha = sha1(text);
    }

    /** The script in resource {@code name} next to {@code owner}. */
    public static RedisScript load(Class<?> owner, String name) {
        try (InputStream in = owner.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + name);
            }
            return new RedisScript(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A client for {@code uri} that fails fast while Redis is away, as the scripts' callers want: commands rejected, not
     * queued, while disconnected; each one bounded by {@code timeout}; reconnecting by itself.
     */
    public static RedisClient failFastClient(RedisURI uri, Duration timeout, ClientResources resources) {
        uri.setTimeout(timeout);
        RedisClient client = RedisClient.create(resources, uri);
        client.setOptions(ClientOptions.builder()
                .autoReconnect(true)
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .timeoutOptions(TimeoutOptions.enabled(timeout))
                .socketOptions(SocketOptions.builder().connectTimeout(Duration.ofSeconds(1)).build())
                .build());
        return client;
    }

    /** EVALSHA, and EVAL when Redis answers NOSCRIPT; the reply is a list. */
    public CompletableFuture<List<Object>> run(StatefulRedisConnection<String, String> c, String[] keys,
            String[] args) {
        return c.async().<List<Object>>evalsha(sha, ScriptOutputType.MULTI, keys, args)
                .handle((reply, error) -> {
                    if (error == null) {
                        return CompletableFuture.completedFuture(reply);
                    }
                    if (String.valueOf(error.getMessage()).startsWith("NOSCRIPT")) {
                        return c.async().<List<Object>>eval(text, ScriptOutputType.MULTI, keys, args)
                                .toCompletableFuture();
                    }
                    return CompletableFuture.<List<Object>>failedFuture(error);
                })
                .thenCompose(f -> f).toCompletableFuture();
    }

    private static String sha1(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
