package io.inferencegateway.rollout;

import java.time.Duration;

import io.inferencegateway.domain.BoundedLruTable;
import io.inferencegateway.domain.NanoClock;

/**
 * Which target each sticky caller of a model rewrite was sent to, so that a conversation keeps its version when the
 * weights change (docs/rollouts.md). Bounded: past its capacity the least recently used key goes; a key not used for
 * the idle time counts as gone. Per replica: other replicas keep tables of their own. A {@link BoundedLruTable}:
 * sixteen stripes, each under its own lock, held for a lookup or an insert only, so the request path's event loops
 * seldom meet on one.
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

    /** At least one key per stripe of the table. */
    private static final int MIN_CAPACITY = 16;

    private final BoundedLruTable<String> targets;
    private final NanoClock clock;

    public StickyVersions(int capacity, Duration idle, NanoClock clock) {
        if (capacity < MIN_CAPACITY) {
            throw new IllegalArgumentException("capacity must be at least " + MIN_CAPACITY);
        }
        this.targets = new BoundedLruTable<>(capacity, idle.toNanos());
        this.clock = clock;
    }

    /** The target {@code key} was sent to, or null when it has none (never, pushed out, or idle too long). */
    public String get(long key) {
        return targets.get(key, clock.nanoTime());
    }

    /** {@code key} is sent to {@code model} from now on. */
    public void put(long key, String model) {
        targets.put(key, model, clock.nanoTime());
    }

    /** How many keys are held (those gone idle dropped). */
    public int size() {
        return (int) targets.size(clock.nanoTime());
    }
}
