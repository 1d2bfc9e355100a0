package io.inferencegateway.kvevents;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

import io.inferencegateway.domain.Endpoint;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/**
 * Subscribes to the KV-event publishers of endpoints (vLLM's {@code --kv-events-config} ZMQ PUB socket, SGLang's in the
 * same framing): each message is three frames, a topic, an 8-byte big-endian sequence number and a msgpack
 * {@link KvEventBatch}. Each publisher's numbers are followed ({@link PublisherSequence}): on a gap the publisher's
 * replay socket (ZMQ ROUTER) is asked for the missed messages from the first missing number, and they are applied in
 * order before the message that showed the gap; when it has no replay socket, or no longer holds them, or the
 * publisher restarted, the listener hears {@link KvEventListener#reset} for the endpoint (what it knew of that engine
 * is void) and the messages after it are applied as they come. A frame that does not decode is counted and dropped.
 *
 * <p>One thread for all publishers (JeroMQ's sockets belong to one thread each): it polls every subscription with one
 * poller, and applies subscription changes between polls. Each endpoint's replay socket is connected when it is
 * subscribed to, so that a gap's replay goes over a connection already made; it is asked for on that thread and
 * waited for up to {@link #REPLAY_TIMEOUT_MS}, the other publishers' messages queueing in their sockets meanwhile.
 */
public final class KvEventSubscriber implements AutoCloseable {

    /** How long a replay may take before the endpoint is started over instead. */
    static final int REPLAY_TIMEOUT_MS = 1_000;
    private static final int POLL_MS = 100;
    private static final Logger LOG = LoggerFactory.getLogger(KvEventSubscriber.class);

    /** What learns of the events. Called on the subscriber's thread, one endpoint's calls in order. */
    public interface KvEventListener {
        /** {@code endpoint}'s engine published {@code batch}. */
        void batch(Endpoint endpoint, KvEventBatch batch);

        /** What {@code endpoint}'s engine said before is void: it restarted, or messages were lost for good. */
        void reset(Endpoint endpoint, String why);
    }

    /**
     * Where an endpoint publishes.
     *
     * @param publisher the PUB socket, e.g. {@code tcp://10.0.0.7:5557}
     * @param replay    the ROUTER socket that replays recent messages, or null
     * @param topic     the topic subscribed to; empty for all
     */
    public record PublisherAddress(String publisher, String replay, String topic) {
    }

    /** What has happened on one endpoint's subscription; counters only grow. */
    public static final class SubscriptionCounts {
        final AtomicLong messages = new AtomicLong();
        final AtomicLong gaps = new AtomicLong();
        final AtomicLong replayed = new AtomicLong();
        final AtomicLong resets = new AtomicLong();
        final AtomicLong undecodable = new AtomicLong();
        volatile long lastMessageNanos;

        public long messages() {
            return messages.get();
        }

        public long gaps() {
            return gaps.get();
        }

        /** Messages received from the replay socket and applied. */
        public long replayed() {
            return replayed.get();
        }

        public long resets() {
            return resets.get();
        }

        public long undecodable() {
            return undecodable.get();
        }

        /** {@link System#nanoTime()} of the last message, 0 before the first. */
        public long lastMessageNanos() {
            return lastMessageNanos;
        }
    }

    private final KvEventListener listener;
    private final ZContext context = new ZContext(1);
    private final ConcurrentLinkedQueue<Runnable> changes = new ConcurrentLinkedQueue<>();
    private final Map<Endpoint, Subscription> subscriptions = new ConcurrentHashMap<>();
    private final Thread thread;
    private volatile boolean running = true;

    public KvEventSubscriber(KvEventListener listener) {
        this.listener = listener;
        this.thread = new Thread(this::run, "kv-events");
        thread.setDaemon(true);
        thread.start();
    }

    /** Subscribes to {@code endpoint}'s events at {@code source} (again, from scratch, when it was subscribed). */
    public void subscribe(Endpoint endpoint, PublisherAddress source) {
        changes.add(() -> {
            drop(endpoint);
            ZMQ.Socket socket = context.createSocket(SocketType.SUB);
            socket.setLinger(0);
            socket.connect(source.publisher());
            socket.subscribe(source.topic() == null ? "" : source.topic());
            ZMQ.Socket dealer = null;
            if (source.replay() != null) {
                dealer = context.createSocket(SocketType.DEALER);
                dealer.setLinger(0);
                dealer.connect(source.replay());
            }
            subscriptions.put(endpoint, new Subscription(endpoint, source, socket, dealer));
        });
    }

    /** Stops listening to {@code endpoint}. */
    public void unsubscribe(Endpoint endpoint) {
        changes.add(() -> drop(endpoint));
    }

    /** The counts of {@code endpoint}'s subscription, or null when it has none (yet). */
    public SubscriptionCounts counts(Endpoint endpoint) {
        Subscription s = subscriptions.get(endpoint);
        return s == null ? null : s.counts;
    }

    private void drop(Endpoint endpoint) {
        Subscription s = subscriptions.remove(endpoint);
        if (s != null && s.dealer != null) {
            context.destroySocket(s.dealer); // its SUB socket goes when the loop unregisters it
        }
    }

    private void run() {
        // one poller for the subscriber's life, sockets registered and unregistered as subscriptions change
        ZMQ.Poller poller = context.createPoller(8);
        Map<Integer, Subscription> polled = new HashMap<>();
        while (running) {
            for (Runnable change; (change = changes.poll()) != null; ) {
                change.run();
            }
            polled.values().removeIf(s -> {
                boolean gone = subscriptions.get(s.endpoint) != s;
                if (gone) {
                    poller.unregister(s.socket);
                    context.destroySocket(s.socket);
                }
                return gone;
            });
            for (Subscription s : subscriptions.values()) {
                if (!polled.containsValue(s)) {
                    polled.put(poller.register(s.socket, ZMQ.Poller.POLLIN), s);
                }
            }
            if (polled.isEmpty()) {
                sleep();
                continue;
            }
            try {
                if (poller.poll(POLL_MS) <= 0) {
                    continue;
                }
                for (Map.Entry<Integer, Subscription> e : polled.entrySet()) {
                    if (poller.pollin(e.getKey())) {
                        e.getValue().drain();
                    }
                }
            } catch (RuntimeException e) {
                if (running) {
                    LOG.warn("KV-event subscriptions: {}", e.toString());
                }
            }
        }
        poller.close();
        context.close();
    }

    private static void sleep() {
        try {
            Thread.sleep(POLL_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        running = false;
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** One endpoint's SUB socket and sequence, touched by the subscriber's thread only. */
    private final class Subscription {
        final Endpoint endpoint;
        final PublisherAddress source;
        final ZMQ.Socket socket;
        final ZMQ.Socket dealer;
        final PublisherSequence sequence = new PublisherSequence();
        final SubscriptionCounts counts = new SubscriptionCounts();

        Subscription(Endpoint endpoint, PublisherAddress source, ZMQ.Socket socket, ZMQ.Socket dealer) {
            this.endpoint = endpoint;
            this.source = source;
            this.socket = socket;
            this.dealer = dealer;
        }

        /** Every message waiting in the socket. */
        void drain() {
            for (List<byte[]> frames; (frames = receive(socket, ZMQ.DONTWAIT)) != null; ) {
                if (frames.size() < 3 || frames.get(1).length != 8) {
                    counts.undecodable.incrementAndGet();
                    continue;
                }
                message(ByteBuffer.wrap(frames.get(1)).getLong(), frames.get(2));
            }
        }

        private void message(long seq, byte[] payload) {
            counts.messages.incrementAndGet();
            counts.lastMessageNanos = System.nanoTime();
            switch (sequence.step(seq)) {
                case NEXT -> { }
                case RESTARTED -> reset("the publisher restarted (sequence " + seq + " after " + sequence.last() + ")");
                case GAP -> {
                    counts.gaps.incrementAndGet();
                    if (!replay(seq)) {
                        reset("messages " + sequence.expected() + " to " + (seq - 1) + " were lost and could not "
                                + "be replayed");
                    }
                }
            }
            apply(seq, payload);
        }

        private void reset(String why) {
            counts.resets.incrementAndGet();
            LOG.info("KV events of {}: {}; what it held is forgotten", endpoint, why);
            listener.reset(endpoint, why);
        }

        private void apply(long seq, byte[] payload) {
            sequence.applied(seq);
            KvEventBatch batch;
            try {
                batch = KvEventDecoder.decode(payload);
            } catch (KvEventFormatException e) {
                counts.undecodable.incrementAndGet();
                LOG.debug("KV events of {}: message {} does not decode: {}", endpoint, seq, e.getMessage());
                return;
            }
            listener.batch(endpoint, batch);
        }

        /**
         * Asks the replay socket for the messages from the first missed one up to {@code upTo} (excluded) and applies
         * them; false when it has no replay socket, does not answer in time, or no longer holds the first one.
         */
        private boolean replay(long upTo) {
            if (dealer == null) {
                return false;
            }
            while (receive(dealer, ZMQ.DONTWAIT) != null) {
                // what an earlier replay answered too late
            }
            long from = sequence.expected();
            try (ZMQ.Poller answer = context.createPoller(1)) {
                dealer.sendMore(new byte[0]);
                dealer.send(ByteBuffer.allocate(8).putLong(from).array());
                answer.register(dealer, ZMQ.Poller.POLLIN);
                long deadline = System.nanoTime() + REPLAY_TIMEOUT_MS * 1_000_000L;
                while (true) {
                    List<byte[]> frames = receive(dealer, ZMQ.DONTWAIT);
                    if (frames == null) {
                        long left = (deadline - System.nanoTime()) / 1_000_000;
                        if (left <= 0 || answer.poll(left) <= 0) {
                            return false; // no answer in time
                        }
                        continue;
                    }
                    // [empty delimiter, (topic,) sequence, payload]; the end is sequence -1
                    List<byte[]> rest = frames.subList(frames.get(0).length == 0 ? 1 : 0, frames.size());
                    byte[] seqFrame = rest.size() >= 3 ? rest.get(1) : rest.isEmpty() ? null : rest.get(0);
                    if (seqFrame == null || seqFrame.length != 8) {
                        return false;
                    }
                    long seq = ByteBuffer.wrap(seqFrame).getLong();
                    if (seq < 0 || seq >= upTo) {
                        return sequence.expected() == upTo;
                    }
                    if (seq != sequence.expected()) {
                        return false; // its buffer no longer starts where the gap does
                    }
                    counts.replayed.incrementAndGet();
                    apply(seq, rest.get(rest.size() - 1));
                }
            }
        }
    }

    /** The frames of the next message, or null when none is there ({@code DONTWAIT}) or came in time. */
    private static List<byte[]> receive(ZMQ.Socket socket, int flags) {
        byte[] frame = socket.recv(flags);
        if (frame == null) {
            return null;
        }
        List<byte[]> frames = new ArrayList<>(3);
        frames.add(frame);
        while (socket.hasReceiveMore()) {
            frames.add(socket.recv(0));
        }
        return frames;
    }
}
