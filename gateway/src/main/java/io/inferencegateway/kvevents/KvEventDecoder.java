package io.inferencegateway.kvevents;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.msgpack.core.MessagePack;
import org.msgpack.core.MessageUnpacker;
import org.msgpack.value.ValueType;

/**
 * Reads the msgpack payload of a KV-event message in each encoding vLLM has published: the batch as an array
 * ({@code [ts, events, data_parallel_rank, ...]}) or as a map ({@code ts}, {@code events}, {@code data_parallel_rank}
 * or SGLang's {@code attn_dp_rank}); each event as a tagged array ({@code ["BlockStored", block_hashes,
 * parent_block_hash, token_ids, block_size, lora_id, medium, lora_name, extra_keys, group_idx, ...]}) or as a map with
 * a {@code type}. Hashes may be integers (unsigned 64-bit ones included) or byte strings. Fields it does not know are
 * ignored, events of a type it does not know are counted and skipped; anything else is a
 * {@link KvEventFormatException}.
 *
 * <p>The payload is read into plain values first, refusing more elements than it has bytes and nesting deeper than
 * {@link #MAX_DEPTH}, so that a hostile or broken frame costs its own size and no more.
 */
public final class KvEventDecoder {

    static final int MAX_DEPTH = 8;
    private static final Object NIL = new Object();

    private KvEventDecoder() {
    }

    /** @throws KvEventFormatException when {@code payload} is not an event batch */
    public static KvEventBatch decode(byte[] payload) {
        Object batch;
        try (MessageUnpacker in = MessagePack.newDefaultUnpacker(payload)) {
            batch = read(in, payload.length, 0);
            if (in.hasNext()) {
                throw new KvEventFormatException("bytes after the batch");
            }
        } catch (IOException | RuntimeException e) {
            if (e instanceof KvEventFormatException f) {
                throw f;
            }
            throw new KvEventFormatException("not msgpack: " + e);
        }
        Object ts;
        Object events;
        Object rank;
        if (batch instanceof List<?> fields) {
            ts = at(fields, 0);
            events = at(fields, 1);
            rank = at(fields, 2);
        } else if (batch instanceof Map<?, ?> fields) {
            ts = fields.get("ts");
            events = fields.get("events");
            rank = fields.containsKey("data_parallel_rank") ? fields.get("data_parallel_rank")
                    : fields.get("attn_dp_rank");
        } else {
            throw new KvEventFormatException("the batch is neither an array nor a map");
        }
        if (!(events instanceof List<?> list)) {
            throw new KvEventFormatException("the batch has no list of events");
        }
        List<KvEvent> read = new ArrayList<>(list.size());
        int unknown = 0;
        for (Object e : list) {
            KvEvent event = event(e);
            if (event == null) {
                unknown++;
            } else {
                read.add(event);
            }
        }
        return new KvEventBatch(ts instanceof Number n ? n.doubleValue() : 0, List.copyOf(read),
                rank instanceof Long r ? r.intValue() : -1, unknown);
    }

    /** One event, or null when its type is unknown. */
    private static KvEvent event(Object e) {
        String type;
        Map<String, Object> f = new HashMap<>();
        if (e instanceof List<?> a && !a.isEmpty() && a.get(0) instanceof String tag) {
            type = tag;
            String[] names = switch (tag) {
                case "BlockStored" -> new String[] {"block_hashes", "parent_block_hash", "token_ids", "block_size",
                        "lora_id", "medium", "lora_name", "extra_keys", "group_idx"};
                case "BlockRemoved" -> new String[] {"block_hashes", "medium", "group_idx"};
                default -> new String[0];
            };
            for (int i = 0; i < names.length && i + 1 < a.size(); i++) {
                f.put(names[i], a.get(i + 1));
            }
        } else if (e instanceof Map<?, ?> m && m.get("type") instanceof String tag) {
            type = tag;
            m.forEach((k, v) -> f.put(String.valueOf(k), v));
        } else {
            throw new KvEventFormatException("an event is neither a tagged array nor a map with a type");
        }
        return switch (type) {
            case "BlockStored" -> {
                long[] hashes = hashes(f.get("block_hashes"));
                int[] tokens = ints(f.get("token_ids"), "token_ids");
                int size = f.get("block_size") instanceof Long s && s > 0 && s <= 1 << 20 ? s.intValue() : 0;
                if (size == 0 || tokens.length > (long) hashes.length * size) {
                    throw new KvEventFormatException("BlockStored: block_size " + f.get("block_size") + " for "
                            + hashes.length + " blocks of " + tokens.length + " tokens");
                }
                Object parent = f.get("parent_block_hash");
                yield new KvEvent.BlockStored(hashes, parent == null || parent == NIL ? null : hash(parent), tokens,
                        size, f.get("lora_name") instanceof String n ? n : null, medium(f.get("medium")),
                        group(f.get("group_idx")));
            }
            case "BlockRemoved" -> new KvEvent.BlockRemoved(hashes(f.get("block_hashes")), medium(f.get("medium")),
                    group(f.get("group_idx")));
            case "AllBlocksCleared" -> new KvEvent.AllBlocksCleared();
            default -> null;
        };
    }

    private static KvEvent.Medium medium(Object m) {
        return KvEvent.Medium.of(m instanceof String s ? s : null);
    }

    private static int group(Object g) {
        return g instanceof Long l && l >= 0 && l < 1024 ? l.intValue() : 0;
    }

    private static long[] hashes(Object list) {
        if (!(list instanceof List<?> l)) {
            throw new KvEventFormatException("block_hashes is not a list");
        }
        long[] out = new long[l.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = hash(l.get(i));
        }
        return out;
    }

    /** An engine's block hash as 64 bits: an integer's low 64 bits, a byte string's last 8 bytes. */
    private static long hash(Object h) {
        if (h instanceof Long l) {
            return l;
        }
        if (h instanceof BigInteger b) {
            return b.longValue();
        }
        if (h instanceof byte[] bytes && bytes.length > 0) {
            long v = 0;
            for (int i = Math.max(0, bytes.length - 8); i < bytes.length; i++) {
                v = v << 8 | (bytes[i] & 0xff);
            }
            return v;
        }
        throw new KvEventFormatException("a block hash is neither an integer nor bytes");
    }

    private static int[] ints(Object list, String field) {
        if (!(list instanceof List<?> l)) {
            throw new KvEventFormatException(field + " is not a list");
        }
        int[] out = new int[l.size()];
        for (int i = 0; i < out.length; i++) {
            if (!(l.get(i) instanceof Long v) || v < 0 || v > Integer.MAX_VALUE) {
                throw new KvEventFormatException(field + " holds a value that is not a token id");
            }
            out[i] = v.intValue();
        }
        return out;
    }

    private static Object at(List<?> list, int i) {
        return i < list.size() ? list.get(i) : null;
    }

    /**
     * The next value as Java values: List, Map, Long (BigInteger past a signed long), Double, String, byte[], Boolean,
     * or {@link #NIL}.
     */
    private static Object read(MessageUnpacker in, int size, int depth) throws IOException {
        if (depth > MAX_DEPTH) {
            throw new KvEventFormatException("nested deeper than " + MAX_DEPTH);
        }
        ValueType type = in.getNextFormat().getValueType();
        switch (type) {
            case NIL -> {
                in.unpackNil();
                return NIL;
            }
            case BOOLEAN -> {
                return in.unpackBoolean();
            }
            case INTEGER -> {
                BigInteger v = in.unpackBigInteger();
                return v.bitLength() < 64 ? (Object) v.longValue() : v;
            }
            case FLOAT -> {
                return in.unpackDouble();
            }
            case STRING -> {
                int n = fits(in.unpackRawStringHeader(), in, size);
                return new String(in.readPayload(n), StandardCharsets.UTF_8);
            }
            case BINARY -> {
                return in.readPayload(fits(in.unpackBinaryHeader(), in, size));
            }
            case ARRAY -> {
                int n = fits(in.unpackArrayHeader(), in, size);
                List<Object> list = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    list.add(read(in, size, depth + 1));
                }
                return list;
            }
            case MAP -> {
                int n = fits(in.unpackMapHeader(), in, size);
                Map<Object, Object> map = new HashMap<>();
                for (int i = 0; i < n; i++) {
                    Object key = read(in, size, depth + 1);
                    map.put(key instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : key,
                            read(in, size, depth + 1));
                }
                return map;
            }
            default -> {
                in.skipValue();
                return NIL;
            }
        }
    }

    /** {@code n} elements or bytes, refused when the payload's rest cannot hold them. */
    private static int fits(int n, MessageUnpacker in, int size) {
        if (n < 0 || n > size - in.getTotalReadBytes()) {
            throw new KvEventFormatException("a length of " + n + " past the payload's end");
        }
        return n;
    }
}
