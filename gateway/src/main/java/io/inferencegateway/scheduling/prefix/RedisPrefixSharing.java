package io.inferencegateway.scheduling.prefix;

import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

import io.inferencegateway.domain.Endpoint;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.lettuce.core.resource.ClientResources;
import io.micrometer.core.instrument.Meter;

/**
 * Shared placement over Redis pub/sub: every routing decision of a pool is published on the channel
 * {@code inference-gateway:prefixes:<pool>}, and every replica records the others' decisions in its own prefix index,
 * so each index learns the whole fleet's traffic. A new prefix then goes where the load is lowest and every replica
 * follows it there, as with one gateway.
 *
 * <p>Fire and forget: nothing on the request path waits for Redis. A message is the sender's id (a replica skips its
 * own), the pod, its cache size in index blocks and the prompt's block hashes (8 bytes each; a 2,000-token prompt is
 * about 1 KB). While Redis cannot be reached, decisions are dropped and counted, {@link Feed#live()} is false, and
 * the connection is retried every second; Lettuce re-subscribes after a reconnect. A decision lost costs at most one
 * cache miss. Its threads are the gateway's, shared with every Redis client (runtime/RedisClientResources).
 *
 * <p>Metrics per pool ({@link PrefixSharingMeters}): {@code inference_gateway_prefix_sharing_messages_total{pool,direction}}
 * (published, received, dropped) and {@code inference_gateway_prefix_sharing_up{pool}}.
 */
public final class RedisPrefixSharing implements AutoCloseable {

    static final String CHANNEL = "inference-gateway:prefixes:";
    private static final long RECONNECT_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** How often each pool's traffic factor is measured, over the decisions since the last time. */
    static final Duration TRAFFIC_WINDOW = Duration.ofSeconds(2);
    /** Fewer own decisions in a window than this tell too little: the factor is unknown. */
    static final int MIN_OWN_DECISIONS = 10;

    private final long replicaId = ThreadLocalRandom.current().nextLong();
    private final RedisClient client;
    private final RedisURI uri;
    private final PrefixSharingMeters meters;
    private final Map<String, PoolChannel> pools = new ConcurrentHashMap<>();
    private final ScheduledFuture<?> trafficTimer;

    private volatile CompletableFuture<StatefulRedisConnection<byte[], byte[]>> publisher;
    private volatile CompletableFuture<StatefulRedisPubSubConnection<byte[], byte[]>> subscriber;
    private volatile long connectStartNanos;
    private volatile boolean closed;

    /** @param resources the gateway's Lettuce threads; they outlive this sharing */
    public RedisPrefixSharing(URI url, ClientResources resources, PrefixSharingMeters meters) {
        this(url, resources, meters, TRAFFIC_WINDOW);
    }

    RedisPrefixSharing(URI url, ClientResources resources, PrefixSharingMeters meters, Duration trafficWindow) {
        this.meters = meters;
        this.uri = RedisURI.create(url);
        this.client = RedisClient.create(resources, uri);
        client.setOptions(ClientOptions.builder()
                .autoReconnect(true)
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .socketOptions(SocketOptions.builder().connectTimeout(Duration.ofSeconds(1)).build())
                .build());
        connect();
        trafficTimer = resources.eventExecutorGroup().scheduleAtFixedRate(
                () -> pools.values().forEach(PoolChannel::measureTraffic),
                trafficWindow.toMillis(), trafficWindow.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The sharing of one pool's decisions. */
    public PrefixSharing forPool(String pool) {
        return receiver -> {
            PoolChannel p = pools.computeIfAbsent(pool, PoolChannel::new);
            p.receiver = receiver;
            // now if connected, else once connected (a later reconnect subscribes every pool's channel again)
            subscriber.thenAccept(c -> subscribe(c, List.of(p)));
            return p;
        };
    }

    /** Opens both connections, unless they are open or were tried less than a second ago. */
    private synchronized void connect() {
        long now = System.nanoTime();
        if (closed || (publisher != null && (!failed(publisher) && !failed(subscriber)
                || now - connectStartNanos < RECONNECT_NANOS))) {
            return;
        }
        connectStartNanos = now;
        closeConnections(); // what half succeeded before
        publisher = client.connectAsync(ByteArrayCodec.INSTANCE, uri).toCompletableFuture();
        CompletableFuture<StatefulRedisPubSubConnection<byte[], byte[]>> sub = client
                .connectPubSubAsync(ByteArrayCodec.INSTANCE, uri).toCompletableFuture();
        subscriber = sub.thenApply(c -> {
            c.addListener(new RedisPubSubAdapter<>() {
                @Override
                public void message(byte[] channel, byte[] message) {
                    received(channel, message);
                }
            });
            subscribe(c, List.copyOf(pools.values()));
            return c;
        });
    }

    /** Subscribes to the pools' channels; each pool counts as live once Redis confirmed. */
    private static void subscribe(StatefulRedisPubSubConnection<byte[], byte[]> c, List<PoolChannel> some) {
        if (!some.isEmpty()) {
            c.async().subscribe(some.stream().map(p -> p.channel).toArray(byte[][]::new))
                    .thenRun(() -> some.forEach(p -> p.subscribed = true));
        }
    }

    private void received(byte[] channel, byte[] message) {
        PoolChannel pool = pools.get(new String(channel, CHANNEL.length(), channel.length - CHANNEL.length(),
                StandardCharsets.UTF_8));
        ByteBuffer in = ByteBuffer.wrap(message);
        if (pool == null || in.remaining() < 20 || in.getLong() == replicaId) {
            return;
        }
        try {
            byte[] host = new byte[in.getShort()];
            in.get(host);
            Endpoint endpoint = new Endpoint(new String(host, StandardCharsets.UTF_8), in.getShort() & 0xFFFF);
            int cacheBlocks = in.getInt();
            int count = in.getInt();
            if (count < 1 || count != in.remaining() / Long.BYTES) {
                return;
            }
            long[] hashes = new long[count];
            in.asLongBuffer().get(hashes);
            pool.received.increment();
            PrefixSharing.Receiver receiver = pool.receiver;
            if (receiver != null) {
                receiver.routed(hashes, count, endpoint, cacheBlocks);
            }
        } catch (RuntimeException malformed) { // another program on the channel: ignore it
        }
    }

    private static boolean failed(CompletableFuture<?> connection) {
        return connection.isCompletedExceptionally();
    }

    /** The connection if it is established and open now, else null. */
    private static <C extends StatefulConnection<?, ?>> C connected(CompletableFuture<C> f) {
        if (f == null || !f.isDone() || f.isCompletedExceptionally()) {
            return null;
        }
        C c = f.join();
        return c.isOpen() ? c : null;
    }

    private void closeConnections() {
        if (publisher != null) {
            publisher.thenAccept(StatefulConnection::closeAsync);
        }
        if (subscriber != null) {
            subscriber.thenAccept(StatefulConnection::closeAsync);
        }
    }

    /**
     * Stops sharing the decisions of pools not named (a reload removed them, or moved them to another Redis): their
     * channels are left and their meters removed, so that a pool's meters always describe the client serving it.
     */
    public void retainPools(Set<String> names) {
        for (PoolChannel p : pools.values()) {
            if (!names.contains(p.name) && pools.remove(p.name, p)) {
                p.receiver = null;
                meters.remove(p.registered);
                var sub = connected(subscriber);
                if (sub != null) {
                    sub.async().unsubscribe(p.channel);
                }
            }
        }
    }

    /** Closes the connections, stops the traffic timer and removes every pool's meters; the threads stay. */
    @Override
    public void close() {
        closed = true;
        trafficTimer.cancel(false);
        retainPools(Set.of());
        client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }

    /** One pool's channel, its current index and its counts; kept across reloads (one per pool name). */
    private final class PoolChannel implements PrefixSharing.Feed {
        final String name;
        final byte[] channel;
        final List<Meter> registered; // its meters, removed when it stops sharing here
        final LongAdder published = new LongAdder();
        final LongAdder received = new LongAdder();
        final LongAdder dropped = new LongAdder();
        volatile PrefixSharing.Receiver receiver;
        volatile boolean subscribed;
        volatile double trafficFactor = Double.NaN;
        private long publishedBefore;
        private long receivedBefore;

        PoolChannel(String name) {
            this.name = name;
            this.channel = (CHANNEL + name).getBytes(StandardCharsets.UTF_8);
            this.registered = meters.sharing(name,
                    Map.of("published", published, "received", received, "dropped", dropped), this);
        }

        /** On the sharing's timer: the decisions heard and made since the last window. */
        void measureTraffic() {
            long own = published.sum();
            long heard = received.sum();
            long ownNow = own - publishedBefore;
            long heardNow = heard - receivedBefore;
            publishedBefore = own;
            receivedBefore = heard;
            trafficFactor = live() && ownNow >= MIN_OWN_DECISIONS ? (double) (ownNow + heardNow) / ownNow : Double.NaN;
        }

        @Override
        public double trafficFactor() {
            return trafficFactor;
        }

        @Override
        public void publish(long[] hashes, int count, Endpoint endpoint, int cacheBlocks) {
            if (!live()) {
                dropped.increment();
                connect();
                return;
            }
            byte[] host = endpoint.host().getBytes(StandardCharsets.UTF_8);
            ByteBuffer out = ByteBuffer.allocate(8 + 2 + host.length + 2 + 4 + 4 + count * Long.BYTES);
            out.putLong(replicaId).putShort((short) host.length).put(host).putShort((short) endpoint.port())
                    .putInt(cacheBlocks).putInt(count);
            for (int i = 0; i < count; i++) {
                out.putLong(hashes[i]);
            }
            publisher.join().async().publish(channel, out.array()); // live: connected and open
            published.increment();
        }

        @Override
        public boolean live() {
            return subscribed && connected(publisher) != null && connected(subscriber) != null;
        }
    }
}
