package io.inferencegateway.scheduling.session;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.concurrent.atomic.AtomicLongArray;

import io.inferencegateway.domain.BoundedLruMap;
import io.inferencegateway.domain.Endpoint;

/**
 * Which pod each conversation of a pool went to last: session hash → pod, bounded and forgetting. A session is known
 * by a 64-bit hash of its key ({@link #hash}), never by the client's string. The table holds at most
 * {@code maxSessions} sessions, evicting the least recently seen first, and forgets a session unseen for
 * {@code idleTimeout}.
 *
 * <p>Thread-safe: the sessions are spread over up to 16 segments by hash, each an access-ordered
 * {@link LinkedHashMap} under its own lock, so request threads of different sessions rarely meet. Since a segment is in
 * order of last use, its expired sessions are the ones at its head, which every insertion and {@link #size} drop. About
 * 100 bytes a session.
 */
public final class SessionTable {

    /** Why a session left its pod: the pod was removed by a filter (full, mostly), as a meter label. */
    public static final String SATURATED = "saturated";
    /** Why a session left its pod: the pod was no longer a candidate (left the pool, ejected, draining). */
    public static final String POD_GONE = "pod_gone";
    /** Why a session left its pod: the pod had room but the other scorers outweighed the session's. */
    public static final String OUTSCORED = "outscored";
    /** Every move reason: a bounded label set. */
    public static final java.util.List<String> MOVE_REASONS = java.util.List.of(SATURATED, POD_GONE, OUTSCORED);

    private static final int MAX_SEGMENTS = 16;

    private final Segment[] segments;
    private final long idleNanos;
    private final int maxSessions;
    private final AtomicLongArray moves = new AtomicLongArray(MOVE_REASONS.size());

    /**
     * @param maxSessions at least 1
     * @param idleNanos   a session unseen this long is forgotten; positive
     */
    public SessionTable(int maxSessions, long idleNanos) {
        if (maxSessions < 1 || idleNanos <= 0) {
            throw new IllegalArgumentException("need maxSessions >= 1 and idleNanos > 0, got " + maxSessions + ", "
                    + idleNanos);
        }
        int n = Integer.highestOneBit(Math.min(MAX_SEGMENTS, maxSessions));
        segments = new Segment[n];
        for (int i = 0; i < n; i++) { // the capacities add up to maxSessions exactly
            segments[i] = new Segment(maxSessions / n + (i < maxSessions % n ? 1 : 0));
        }
        this.idleNanos = idleNanos;
        this.maxSessions = maxSessions;
    }

    /** A session key's 64-bit hash: FNV-1a over its characters, then SplitMix64's finalizer to spread the bits. */
    public static long hash(String key) {
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < key.length(); i++) {
            h = (h ^ key.charAt(i)) * 0x100000001b3L;
        }
        h = (h ^ (h >>> 30)) * 0xBF58476D1CE4E5B9L;
        h = (h ^ (h >>> 27)) * 0x94D049BB133111EBL;
        return h ^ (h >>> 31);
    }

    /** The session's pod, which counts as a sighting (it is now the most recently seen); null when not known. */
    public Endpoint pod(long session, long nowNanos) {
        Segment s = segment(session);
        synchronized (s) {
            SessionEntry e = s.get(session);
            if (e == null) {
                return null;
            }
            if (nowNanos - e.seen >= idleNanos) {
                s.remove(session);
                return null;
            }
            e.seen = nowNanos;
            return e.pod;
        }
    }

    /**
     * Notes why the session is about to leave its pod ({@link #SATURATED} or {@link #POD_GONE}), for the move that
     * {@link #remember} will count.
     */
    public void leaving(long session, String reason) {
        Segment s = segment(session);
        synchronized (s) {
            SessionEntry e = s.get(session);
            if (e != null) {
                e.leaving = reason;
            }
        }
    }

    /**
     * The session was sent to {@code pod}: remembers it, and counts a move when the session was on another pod (with
     * the reason {@link #leaving} noted, else {@link #OUTSCORED}).
     *
     * @return the pod the session was on before, or null for a new (or forgotten) session
     */
    public Endpoint remember(long session, Endpoint pod, long nowNanos) {
        Segment s = segment(session);
        Endpoint before;
        String reason = null;
        synchronized (s) {
            SessionEntry e = s.get(session);
            if (e == null || nowNanos - e.seen >= idleNanos) {
                before = null;
                s.dropExpired(nowNanos, idleNanos);
                s.put(session, new SessionEntry(pod, nowNanos));
            } else {
                before = e.pod;
                if (!before.equals(pod)) {
                    reason = e.leaving == null ? OUTSCORED : e.leaving;
                    e.pod = pod;
                }
                e.leaving = null;
                e.seen = nowNanos;
            }
        }
        if (reason != null) {
            moves.incrementAndGet(MOVE_REASONS.indexOf(reason));
        }
        return before;
    }

    /** Sessions remembered now (dropping those that expired). Walks the segments' heads: not for the request path. */
    public long size(long nowNanos) {
        long total = 0;
        for (Segment s : segments) {
            synchronized (s) {
                s.dropExpired(nowNanos, idleNanos);
                total += s.size();
            }
        }
        return total;
    }

    /** Moves counted for {@code reason}, one of {@link #MOVE_REASONS}, since the table was made. */
    public long moves(String reason) {
        int i = MOVE_REASONS.indexOf(reason);
        return i < 0 ? 0 : moves.get(i);
    }

    public int maxSessions() {
        return maxSessions;
    }

    public long idleNanos() {
        return idleNanos;
    }

    private Segment segment(long session) {
        return segments[(int) (session >>> 59) & (segments.length - 1)];
    }

    /** One session's pod, when it was last seen, and why it is about to leave (null: it is not). */
    private static final class SessionEntry {
        Endpoint pod;
        long seen;
        String leaving;

        SessionEntry(Endpoint pod, long seen) {
            this.pod = pod;
            this.seen = seen;
        }
    }

    /** An access-ordered map that drops its least recently seen session beyond its capacity. */
    private static final class Segment extends BoundedLruMap<Long, SessionEntry> {
        Segment(int capacity) {
            super(capacity);
        }

        /** Drops the sessions unseen for {@code idleNanos}: in access order, they are at the head. */
        void dropExpired(long nowNanos, long idleNanos) {
            Iterator<SessionEntry> it = values().iterator();
            while (it.hasNext()) {
                if (nowNanos - it.next().seen < idleNanos) {
                    return;
                }
                it.remove();
            }
        }
    }
}
