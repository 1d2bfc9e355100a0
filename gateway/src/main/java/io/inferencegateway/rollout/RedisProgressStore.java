package io.inferencegateway.rollout;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import io.inferencegateway.ratelimit.RedisScript;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.resource.ClientResources;

/**
 * Rollouts' progress and counts on a Redis the replicas share. Per rollout (its key names the configuration, so a
 * changed rollout starts afresh): a hash of its progress, and per step and side a hash of counts every replica adds
 * to each analysis interval (HINCRBY, batched: one script call per interval). A transition is a compare-and-set on
 * the progress's revision in a Lua script, so one replica makes it and the others adopt it. Keys expire
 * {@value #TTL_SECONDS} s after their last write, so a finished or removed rollout leaves nothing behind for good.
 *
 * <p>Lettuce's asynchronous API on the gateway's Redis threads (runtime/RedisClientResources): commands are rejected,
 * not queued, while Redis is unreachable, and each has a timeout; the caller then holds where it is.
 */
final class RedisProgressStore implements ProgressStore {

    static final long TTL_SECONDS = Duration.ofDays(7).toSeconds();
    private static final RedisScript EXCHANGE = RedisScript.load(RedisProgressStore.class, "exchange.lua");
    private static final RedisScript TRANSITION = RedisScript.load(RedisProgressStore.class, "transition.lua");

    private final RedisClient client;
    private final RedisURI uri;
    private CompletableFuture<StatefulRedisConnection<String, String>> connection;

    RedisProgressStore(URI url, Duration timeout, ClientResources resources) {
        this.uri = RedisURI.create(url);
        this.client = RedisScript.failFastClient(uri, timeout, resources);
    }

    /** The connection; a failed attempt is retried at the next call (once per analysis interval). */
    private synchronized CompletableFuture<StatefulRedisConnection<String, String>> connect() {
        CompletableFuture<StatefulRedisConnection<String, String>> c = connection;
        if (c == null || (c.isDone() && c.isCompletedExceptionally())) {
            c = client.connectAsync(StringCodec.UTF8, uri).toCompletableFuture();
            connection = c;
        }
        return c;
    }

    @Override
    public CompletableFuture<StepCounts> exchange(String key, int step, Tally baseline, Tally candidate,
            long nowMillis) {
        List<String> args = new ArrayList<>(List.of(key + ":step:", Long.toString(nowMillis),
                Long.toString(TTL_SECONDS), Integer.toString(step)));
        addFields(args, baseline.fields());
        addFields(args, candidate.fields());
        return run(EXCHANGE, key, args.toArray(String[]::new)).thenApply(reply -> new StepCounts(
                Progress.of(hash(reply.get(0))), Tally.of(hash(reply.get(1))), Tally.of(hash(reply.get(2)))));
    }

    @Override
    public CompletableFuture<Transition> transition(String key, long expectedRev, Progress next) {
        String[] args = {Long.toString(expectedRev), Integer.toString(next.step()),
                Long.toString(next.stepStartMillis()), Long.toString(next.pausedAtMillis()), next.phase().label(),
                next.reason(), Long.toString(TTL_SECONDS)};
        return run(TRANSITION, key, args).thenApply(reply -> new Transition(
                ((Long) reply.get(0)) == 1, Progress.of(hash(reply.get(1)))));
    }

    private static void addFields(List<String> args, Map<String, Long> fields) {
        args.add(Integer.toString(fields.size()));
        fields.forEach((k, v) -> {
            args.add(k);
            args.add(Long.toString(v));
        });
    }

    private static Map<String, String> hash(Object reply) {
        List<?> flat = (List<?>) reply;
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i + 1 < flat.size(); i += 2) {
            m.put(String.valueOf(flat.get(i)), String.valueOf(flat.get(i + 1)));
        }
        return m;
    }

    private CompletableFuture<List<Object>> run(RedisScript script, String key, String[] args) {
        return connect().thenCompose(c -> script.run(c, new String[] {key}, args));
    }

    @Override
    public void close() {
        CompletableFuture<StatefulRedisConnection<String, String>> c;
        synchronized (this) {
            c = connection;
        }
        if (c != null && c.isDone() && !c.isCompletedExceptionally()) {
            c.join().close();
        }
        client.shutdown(Duration.ZERO, Duration.ofSeconds(2)); // not the shared resources: the gateway ends those
    }
}
