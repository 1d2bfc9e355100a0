package io.inferencegateway.simulator;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.List;

import org.msgpack.core.MessageBufferPacker;
import org.msgpack.core.MessagePack;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/**
 * A KV-event publisher as vLLM's {@code ZmqEventPublisher} is: a PUB socket sending three frames a message (topic,
 * 8-byte big-endian sequence number from 0, msgpack {@code EventBatch}), and a ROUTER replay socket that answers a
 * start sequence with every buffered message from it ({@code [client, "", seq, payload]}) and an end marker of
 * sequence -1. The batch and its events in either encoding vLLM has used: msgspec's tagged arrays, or tagged maps.
 * Hashes are written as unsigned 64-bit integers, as vLLM's integer hashes are.
 */
public final class KvEventPublisher implements AutoCloseable {

    /** How a batch and its events are written. */
    public enum Encoding {
        /** {@code [ts, [["BlockStored", hashes, parent, tokens, block_size, lora_id, medium], ...], rank]} */
        ARRAY,
        /** {@code {"ts":..., "events":[{"type":"BlockStored", "block_hashes":...}, ...], "data_parallel_rank":...}} */
        MAP
    }

    /** One event to publish. */
    public sealed interface Event {
    }

    /** Blocks stored, {@code blockSize} of {@code tokenIds} each; {@code parent} null when they start a prompt. */
    public record Stored(long[] hashes, Long parent, int[] tokenIds, int blockSize, String medium) implements Event {
    }

    /** Blocks removed from {@code medium}. */
    public record Removed(long[] hashes, String medium) implements Event {
    }

    /** Every block dropped. */
    public record Cleared() implements Event {
    }

    private final ZContext context = new ZContext(1);
    private final ZMQ.Socket pub;
    private final ZMQ.Socket router;
    private final Thread replayThread;
    private final String topic;
    private final Encoding encoding;
    private final int rank;
    private final int bufferSteps;
    private final int port;
    private final int replayPort;
    private final ArrayDeque<Object[]> buffer = new ArrayDeque<>();
    private long next;
    private volatile boolean running = true;

    /**
     * Binds a PUB socket, and a replay socket when {@code replay}, on random loopback ports ({@link #address()},
     * {@link #replayAddress()}).
     *
     * @param bufferSteps how many recent messages the replay socket holds (vLLM's {@code buffer_steps})
     */
    public KvEventPublisher(boolean replay, String topic, Encoding encoding, int rank, int bufferSteps) {
        this.topic = topic;
        this.encoding = encoding;
        this.rank = rank;
        this.bufferSteps = bufferSteps;
        pub = context.createSocket(SocketType.PUB);
        pub.setLinger(0);
        port = pub.bindToRandomPort("tcp://127.0.0.1");
        if (!replay) {
            router = null;
            replayThread = null;
            replayPort = 0;
            return;
        }
        router = context.createSocket(SocketType.ROUTER);
        router.setLinger(0);
        replayPort = router.bindToRandomPort("tcp://127.0.0.1");
        replayThread = new Thread(this::serveReplays, "kv-events-replay-" + port);
        replayThread.setDaemon(true);
        replayThread.start();
    }

    /** Where it publishes: {@code tcp://127.0.0.1:<port>}. */
    public String address() {
        return "tcp://127.0.0.1:" + port;
    }

    /** Where it answers replays, or null without a replay socket. */
    public String replayAddress() {
        return router == null ? null : "tcp://127.0.0.1:" + replayPort;
    }

    /** The port it publishes on. */
    public int port() {
        return port;
    }

    /** Publishes one batch of {@code events}; returns its sequence number. */
    public long publish(List<Event> events) {
        return send(encode(events));
    }

    /** Publishes {@code payload} as it is (a broken frame, for a test). */
    public synchronized long send(byte[] payload) {
        long seq = next++;
        byte[] seqBytes = ByteBuffer.allocate(8).putLong(seq).array();
        pub.sendMore(topic);
        pub.sendMore(seqBytes);
        pub.send(payload);
        keep(seq, payload);
        return seq;
    }

    /** Numbers {@code events} as the next batch and keeps it for replays, but sends nothing: a message lost. */
    public synchronized void lose(List<Event> events) {
        keep(next++, encode(events));
    }

    /** Holds message {@code seq} for replays, the oldest going past {@code bufferSteps}. */
    private void keep(long seq, byte[] payload) {
        buffer.addLast(new Object[] {seq, payload});
        while (buffer.size() > bufferSteps) {
            buffer.removeFirst();
        }
    }

    /** As an engine that started again: numbers from 0, nothing buffered. */
    public synchronized void restart() {
        next = 0;
        buffer.clear();
    }

    private void serveReplays() {
        ZMQ.Poller poller = context.createPoller(1);
        poller.register(router, ZMQ.Poller.POLLIN);
        while (running) {
            if (poller.poll(100) <= 0) {
                continue;
            }
            byte[] client = router.recv(ZMQ.DONTWAIT);
            if (client == null) {
                continue;
            }
            byte[] last = client;
            while (router.hasReceiveMore()) {
                last = router.recv(0);
            }
            long from = last.length == 8 ? ByteBuffer.wrap(last).getLong() : Long.MAX_VALUE;
            Object[][] held;
            synchronized (this) {
                held = buffer.toArray(new Object[0][]);
            }
            for (Object[] m : held) {
                if ((long) m[0] >= from) {
                    router.sendMore(client);
                    router.sendMore(new byte[0]);
                    router.sendMore(ByteBuffer.allocate(8).putLong((long) m[0]).array());
                    router.send((byte[]) m[1]);
                }
            }
            router.sendMore(client);
            router.sendMore(new byte[0]);
            router.sendMore(ByteBuffer.allocate(8).putLong(-1).array());
            router.send(new byte[0]);
        }
    }

    private byte[] encode(List<Event> events) {
        try (MessageBufferPacker p = MessagePack.newDefaultBufferPacker()) {
            double ts = System.currentTimeMillis() / 1000.0;
            if (encoding == Encoding.MAP) {
                p.packMapHeader(3).packString("ts").packDouble(ts).packString("data_parallel_rank").packInt(rank)
                        .packString("events");
            } else {
                p.packArrayHeader(3).packDouble(ts);
            }
            p.packArrayHeader(events.size());
            for (Event e : events) {
                event(p, e);
            }
            if (encoding == Encoding.ARRAY) {
                p.packInt(rank);
            }
            return p.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void event(MessageBufferPacker p, Event e) throws IOException {
        boolean map = encoding == Encoding.MAP;
        if (e instanceof Stored s) {
            if (map) {
                p.packMapHeader(7).packString("type").packString("BlockStored").packString("block_hashes");
            } else {
                p.packArrayHeader(7).packString("BlockStored");
            }
            hashes(p, s.hashes());
            if (map) {
                p.packString("parent_block_hash");
            }
            if (s.parent() == null) {
                p.packNil();
            } else {
                p.packBigInteger(unsigned(s.parent()));
            }
            if (map) {
                p.packString("token_ids");
            }
            p.packArrayHeader(s.tokenIds().length);
            for (int id : s.tokenIds()) {
                p.packInt(id);
            }
            if (map) {
                p.packString("block_size").packInt(s.blockSize()).packString("lora_id").packNil()
                        .packString("medium").packString(s.medium());
            } else {
                p.packInt(s.blockSize()).packNil().packString(s.medium());
            }
        } else if (e instanceof Removed r) {
            if (map) {
                p.packMapHeader(3).packString("type").packString("BlockRemoved").packString("block_hashes");
            } else {
                p.packArrayHeader(3).packString("BlockRemoved");
            }
            hashes(p, r.hashes());
            if (map) {
                p.packString("medium");
            }
            p.packString(r.medium());
        } else if (map) {
            p.packMapHeader(1).packString("type").packString("AllBlocksCleared");
        } else {
            p.packArrayHeader(1).packString("AllBlocksCleared");
        }
    }

    private static void hashes(MessageBufferPacker p, long[] hashes) throws IOException {
        p.packArrayHeader(hashes.length);
        for (long h : hashes) {
            p.packBigInteger(unsigned(h));
        }
    }

    private static BigInteger unsigned(long h) {
        return new BigInteger(Long.toUnsignedString(h));
    }

    @Override
    public void close() {
        running = false;
        if (replayThread != null) {
            try {
                replayThread.join(2_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        context.close();
    }
}
