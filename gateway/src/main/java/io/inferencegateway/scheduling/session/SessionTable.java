package io.inferencegateway.scheduling.session;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLongArray;

import io.inferencegateway.domain.BoundedLruTable;
import io.inferencegateway.domain.Endpoint;

/**
 * Which pod each conversation of a pool went to last: session hash → pod, bounded and forgetting. A session is known
 * by a 64-bit hash of its key ({@link #hash}), never by the client's string. The table holds at most
 * {@code maxSessions} sessions, evicting the least recently seen first, and forgets a session unseen for
 * {@code idleTimeout}. It counts the sessions it holds on each pod ({@link #sessionsOn}), which a new session's
 * placement balances.
 *
 * <p>Thread-safe: a {@link BoundedLruTable}, the sessions spread over up to 16 stripes by hash, each under its own
 * lock, so request threads of different sessions rarely meet. About 100 bytes a session.
 */
public final class SessionTable {

    /** Why a session left its pod: the pod was removed by a filter (full, mostly), as a meter label. */
    public static final String SATURATED = "saturated";
    /** Why a session left its pod: the pod was no longer a candidate (left the pool, ejected, draining). */
    public static final String POD_GONE = "pod_gone";
    /** Why a session left its pod: the pod had room, but another was predicted faster or scored higher. */
    public static final String OUTSCORED = "outscored";
    /** Why a session left its pod: one gateway's prefix index says the pod evicted most of the conversation's history. */
    public static final String EVICTED = "evicted";
    /** Every move reason: a bounded label set. */
    public static final java.util.List<String> MOVE_REASONS = java.util.List.of(SATURATED, POD_GONE, OUTSCORED,
            EVICTED);

    private final BoundedLruTable<SessionEntry> sessions;
    private final long idleNanos;
    private final int maxSessions;
    private final AtomicLongArray moves = new AtomicLongArray(MOVE_REASONS.size());
    /** Sessions held per pod; a pod with none has no entry, so pods long gone take no room. */
    private final ConcurrentHashMap<Endpoint, Integer> perPod = new ConcurrentHashMap<>();

    /**
     * @param maxSessions at least 1
     * @param idleNanos   a session unseen this long is forgotten; positive
     */
    public SessionTable(int maxSessions, long idleNanos) {
        if (maxSessions < 1 || idleNanos <= 0) {
            throw new IllegalArgumentException("need maxSessions >= 1 and idleNanos > 0, got " + maxSessions + ", "
                    + idleNanos);
        }
        this.sessions = new BoundedLruTable<>(maxSessions, idleNanos, e -> leave(e.pod));
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
        SessionEntry e = sessions.get(session, nowNanos);
        return e == null ? null : e.pod;
    }

    /**
     * Notes why the session is about to leave its pod ({@link #SATURATED}, {@link #POD_GONE} or {@link #EVICTED}), for
     * the move that {@link #remember} will count.
     */
    public void leaving(long session, String reason) {
        synchronized (sessions.lock(session)) {
            SessionEntry e = sessions.peek(session);
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
        Endpoint before;
        String reason = null;
        synchronized (sessions.lock(session)) {
            SessionEntry e = sessions.get(session, nowNanos);
            if (e == null) {
                before = null;
                sessions.put(session, new SessionEntry(pod), nowNanos);
                perPod.merge(pod, 1, Integer::sum);
            } else {
                before = e.pod;
                if (!before.equals(pod)) {
                    reason = e.leaving == null ? OUTSCORED : e.leaving;
                    e.pod = pod;
                    leave(before);
                    perPod.merge(pod, 1, Integer::sum);
                }
                e.leaving = null;
            }
        }
        if (reason != null) {
            moves.incrementAndGet(MOVE_REASONS.indexOf(reason));
        }
        return before;
    }

    /**
     * The sessions held on {@code pod}: those sent there last and not yet forgotten (one idle past the timeout counts
     * until its stripe next drops the idle).
     */
    public int sessionsOn(Endpoint pod) {
        Integer n = perPod.get(pod);
        return n == null ? 0 : n;
    }

    private void leave(Endpoint pod) {
        perPod.computeIfPresent(pod, (p, n) -> n == 1 ? null : n - 1);
    }

    /** Sessions remembered now (dropping those that expired). Walks the segments' heads: not for the request path. */
    public long size(long nowNanos) {
        return sessions.size(nowNanos);
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

    /** One session's pod, and why it is about to leave (null: it is not); changed under its stripe's lock. */
    private static final class SessionEntry {
        Endpoint pod;
        String leaving;

        SessionEntry(Endpoint pod) {
            this.pod = pod;
        }
    }
}
