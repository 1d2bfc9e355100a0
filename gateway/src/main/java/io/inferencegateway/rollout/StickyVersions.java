package io.inferencegateway.rollout;

import java.time.Duration;
import io.inferencegateway.domain.BoundedLruMap;
import io.inferencegateway.domain.NanoClock;

/**
 * Which target each sticky caller of a model rewrite was sent to, so that a conversation keeps its version when the
 * weights change (docs/rollouts.md). Bounded: past its capacity the least recently used key goes; a key not used for
 * the idle time counts as gone. Per replica: other replicas keep tables of their own.
 *
 * <p>Sixteen stripes, each a small access-ordered map under its own lock, held for a lookup or an insert only: the
 * request path's event loops seldom meet on one.
 */
public final class StickyVersions {

    /**
     * Sixty-four thousand conversations, about 6 MiB: more than the active conversations a gateway replica sees in an
     * hour at a few hundred requests a second; a conversation pushed out falls back on its hash, which keeps it where
     * it was unless the weights changed since it began.
     */
    public static final int DEFAULT_CAPACITY = 1 << 16;
    /** A conversation idle this long starts afresh: its prompt cache is cold by then anyway. */
    public static final Duration DEFAULT_IDLE = Duration.ofHours(1);

    private static final int STRIPES = 16;

    private final Stripe[] stripes = new Stripe[STRIPES];
    private final long idleNanos;
    private final NanoClock clock;

    public StickyVersions(int capacity, Duration idle, NanoClock clock) {
        if (capacity < STRIPES) {
            throw new IllegalArgumentException("capacity must be at least " + STRIPES);
        }
        for (int i = 0; i < STRIPES; i++) {
            stripes[i] = new Stripe(capacity / STRIPES);
        }
        this.idleNanos = idle.toNanos();
        this.clock = clock;
    }

    /** The target {@code key} was sent to, or null when it has none (never, pushed out, or idle too long). */
    public String get(long key) {
        Stripe s = stripe(key);
        long now = clock.nanoTime();
        synchronized (s) {
            StickyChoice e = s.get(key);
            if (e == null) {
                return null;
            }
            if (now - e.lastUsed > idleNanos) {
                s.remove(key);
                return null;
            }
            e.lastUsed = now;
            return e.model;
        }
    }

    /** {@code key} is sent to {@code model} from now on. */
    public void put(long key, String model) {
        Stripe s = stripe(key);
        long now = clock.nanoTime();
        synchronized (s) {
            s.put(key, new StickyChoice(model, now));
        }
    }

    /** How many keys are held (idle ones included until they are looked up or pushed out). */
    public int size() {
        int n = 0;
        for (Stripe s : stripes) {
            synchronized (s) {
                n += s.size();
            }
        }
        return n;
    }

    private Stripe stripe(long key) {
        return stripes[(int) (key ^ (key >>> 32)) & (STRIPES - 1)];
    }

    private static final class StickyChoice {
        final String model;
        long lastUsed;

        StickyChoice(String model, long lastUsed) {
            this.model = model;
            this.lastUsed = lastUsed;
        }
    }

    private static final class Stripe extends BoundedLruMap<Long, StickyChoice> {
        Stripe(int capacity) {
            super(capacity);
        }
    }
}
