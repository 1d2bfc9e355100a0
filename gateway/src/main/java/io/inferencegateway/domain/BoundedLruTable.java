package io.inferencegateway.domain;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A bounded, forgetting table from a 64-bit key (a hash) to a value: past its capacity the least recently used key
 * goes, and a key unused for the idle time counts as gone. The gateway's per-replica memories are made of it: which
 * pod each conversation went to last ({@code scheduling/session/SessionTable}), which version each sticky caller of a
 * model rewrite got ({@code rollout/StickyVersions}).
 *
 * <p>Thread-safe: the keys are spread over up to 16 stripes by their top bits, each an access-ordered
 * {@link LinkedHashMap} under its own lock, held for one lookup or insertion, so request threads of different keys
 * rarely meet. The stripes' capacities add up to the table's exactly. Since a stripe is in order of last use, its
 * idle keys are the ones at its head, which every insertion and {@link #size} drop. A caller that reads a key's value
 * and changes it as one step holds {@link #lock} around both (the table's own methods take the same lock again).
 *
 * <p>Why not Caffeine: its size bound admits by frequency (W-TinyLFU), so a new key can be refused in favour of an
 * old one, where these tables must keep the latest (a conversation's next turn); and its expiry reads a ticker, where
 * the session table's callers pass the time they decided at.
 *
 * <p>A table may be told of every value that goes (pushed out, idle, or found idle), under the key's stripe lock, so
 * that a count kept beside it (the session table's conversations per pod) stays exact.
 */
public final class BoundedLruTable<V> {

    private static final int MAX_STRIPES = 16;

    private final LruStripe<V>[] stripes;
    private final long idleNanos;
    private final Consumer<? super V> gone;

    /**
     * @param capacity  at least 1
     * @param idleNanos a key unused this long is gone; positive
     */
    public BoundedLruTable(int capacity, long idleNanos) {
        this(capacity, idleNanos, v -> { });
    }

    /**
     * @param gone told of each value that leaves the table other than by {@link #put} over its key, under its stripe's
     *             lock; must be quick and must not call the table
     */
    @SuppressWarnings("unchecked")
    public BoundedLruTable(int capacity, long idleNanos, Consumer<? super V> gone) {
        if (capacity < 1 || idleNanos <= 0) {
            throw new IllegalArgumentException("need capacity >= 1 and idleNanos > 0, got " + capacity + ", "
                    + idleNanos);
        }
        int n = Integer.highestOneBit(Math.min(MAX_STRIPES, capacity));
        stripes = new LruStripe[n];
        for (int i = 0; i < n; i++) {
            stripes[i] = new LruStripe<>(capacity / n + (i < capacity % n ? 1 : 0), gone);
        }
        this.idleNanos = idleNanos;
        this.gone = gone;
    }

    /** The value of {@code key}, which counts as a use of it; null when it has none (never, pushed out, or idle). */
    public V get(long key, long nowNanos) {
        LruStripe<V> s = stripe(key);
        synchronized (s) {
            LastUsed<V> u = s.get(key);
            if (u == null) {
                return null;
            }
            if (nowNanos - u.at >= idleNanos) {
                s.remove(key);
                gone.accept(u.value);
                return null;
            }
            u.at = nowNanos;
            return u.value;
        }
    }

    /**
     * The value of {@code key}, idle or not, without counting as a use of it (it still moves to the end of its
     * stripe's order); null when it has none.
     */
    public V peek(long key) {
        LruStripe<V> s = stripe(key);
        synchronized (s) {
            LastUsed<V> u = s.get(key);
            return u == null ? null : u.value;
        }
    }

    /** {@code key} has {@code value} from now on, used at {@code nowNanos}; idle keys at the stripe's head go. */
    public void put(long key, V value, long nowNanos) {
        LruStripe<V> s = stripe(key);
        synchronized (s) {
            s.dropIdle(nowNanos, idleNanos);
            s.put(key, new LastUsed<>(value, nowNanos));
        }
    }

    /** Keys held now (dropping those gone idle). Walks every stripe's head: not for the request path. */
    public long size(long nowNanos) {
        long total = 0;
        for (LruStripe<V> s : stripes) {
            synchronized (s) {
                s.dropIdle(nowNanos, idleNanos);
                total += s.size();
            }
        }
        return total;
    }

    /** The lock of {@code key}'s stripe: held, a read of the key's value and a change to it are one step. */
    public Object lock(long key) {
        return stripe(key);
    }

    private LruStripe<V> stripe(long key) {
        return stripes[(int) (key >>> 59) & (stripes.length - 1)];
    }

    /** A value and when its key was last used. */
    private static final class LastUsed<V> {
        final V value;
        long at;

        LastUsed(V value, long at) {
            this.value = value;
            this.at = at;
        }
    }

    /** An access-ordered map that drops its least recently used key beyond its capacity. Not thread-safe. */
    private static final class LruStripe<V> extends LinkedHashMap<Long, LastUsed<V>> {
        private final int capacity;
        private final Consumer<? super V> gone;

        LruStripe(int capacity, Consumer<? super V> gone) {
            super(16, 0.75f, true);
            this.capacity = capacity;
            this.gone = gone;
        }

        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, LastUsed<V>> eldest) {
            if (size() <= capacity) {
                return false;
            }
            gone.accept(eldest.getValue().value);
            return true;
        }

        /** Drops the keys unused for {@code idleNanos}: in order of use, they are at the head. */
        void dropIdle(long nowNanos, long idleNanos) {
            Iterator<LastUsed<V>> it = values().iterator();
            while (it.hasNext()) {
                LastUsed<V> u = it.next();
                if (nowNanos - u.at < idleNanos) {
                    return;
                }
                it.remove();
                gone.accept(u.value);
            }
        }
    }
}
