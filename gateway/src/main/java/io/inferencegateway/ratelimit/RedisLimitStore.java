package io.inferencegateway.ratelimit;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.resource.ClientResources;

/**
 * The counts on a Redis all replicas share ({@code spec.rateLimits.redis.url}): reserve and commit are Lua scripts
 * (src/main/resources/io/inferencegateway/ratelimit/), so a request is checked and counted in one atomic step and
 * replicas cannot both take the last tokens. Lettuce's asynchronous API, so no request thread waits: a call returns
 * a future completed on Lettuce's I/O thread.
 *
 * <p>While Redis is unreachable every call fails at once (commands are rejected rather than queued, each has a
 * timeout) and the connection is retried every half second; the caller applies the fail mode. Its threads are the
 * gateway's, shared with every Redis client (runtime/RedisClientResources).
 */
public final class RedisLimitStore implements LimitStore {

    private static final RedisScript RESERVE = RedisScript.load(RedisLimitStore.class, "reserve.lua");
    private static final RedisScript COMMIT = RedisScript.load(RedisLimitStore.class, "commit.lua");
    private static final long RECONNECT_NANOS = Duration.ofMillis(500).toNanos();

    private final RedisClient client;
    private final RedisURI uri;
    private volatile CompletableFuture<StatefulRedisConnection<String, String>> connection;
    private volatile long connectStartNanos;

    /** @param resources the gateway's Lettuce threads; they outlive this store */
    public RedisLimitStore(URI url, Duration timeout, ClientResources resources) {
        this.uri = RedisURI.create(url);
        this.client = RedisScript.failFastClient(uri, timeout, resources);
        connect();
    }

    private synchronized CompletableFuture<StatefulRedisConnection<String, String>> connect() {
        CompletableFuture<StatefulRedisConnection<String, String>> c = connection;
        long now = System.nanoTime();
        if (c != null && (!c.isCompletedExceptionally() || now - connectStartNanos < RECONNECT_NANOS)) {
            return c;
        }
        connectStartNanos = now;
        c = client.connectAsync(StringCodec.UTF8, uri).toCompletableFuture();
        connection = c;
        return c;
    }

    @Override
    public CompletableFuture<Verdict> reserve(List<Scope> scopes, long tokens, long windowMillis) {
        String[] keys = new String[scopes.size()];
        String[] args = new String[2 + 2 * scopes.size()];
        args[0] = Long.toString(windowMillis);
        args[1] = Long.toString(tokens);
        for (int i = 0; i < keys.length; i++) {
            Scope s = scopes.get(i);
            keys[i] = s.key();
            args[2 + 2 * i] = Long.toString(s.rpm());
            args[3 + 2 * i] = Long.toString(s.tpm());
        }
        return run(RESERVE, keys, args).thenApply(RedisLimitStore::verdict).toCompletableFuture();
    }

    private static Verdict verdict(List<Object> reply) {
        long[] counts = new long[reply.size() - 4];
        for (int i = 0; i < counts.length; i++) {
            counts[i] = (Long) reply.get(4 + i);
        }
        long refused = (Long) reply.get(3);
        return new Verdict((Long) reply.get(0) == 1, (Long) reply.get(1), (Long) reply.get(2),
                refused == 1 ? Verdict.Limit.REQUESTS : refused == 2 ? Verdict.Limit.TOKENS : null, counts);
    }

    @Override
    public void commit(List<Scope> scopes, long window, long deltaTokens) {
        String[] keys = scopes.stream().map(Scope::key).toArray(String[]::new);
        run(COMMIT, keys, new String[] {Long.toString(window), Long.toString(deltaTokens)});
        // a commit lost while Redis is down leaves the reservation counted: the window errs on the safe side
    }

    private CompletionStage<List<Object>> run(RedisScript script, String[] keys, String[] args) {
        return connect().thenCompose(c -> script.run(c, keys, args));
    }

    @Override
    public void close() {
        CompletableFuture<StatefulRedisConnection<String, String>> c = connection;
        if (c != null && c.isDone() && !c.isCompletedExceptionally()) {
            c.join().close();
        }
        client.shutdown(Duration.ZERO, Duration.ofSeconds(2)); // not the shared resources: the gateway ends those
    }

}
