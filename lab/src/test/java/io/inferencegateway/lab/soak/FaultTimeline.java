package io.inferencegateway.lab.soak;

import java.util.ArrayList;
import java.util.List;

import io.inferencegateway.lab.soak.Fault.Kind;

/**
 * What happened when: each fault with the moment it was injected and the moment it was healed, as the driver did
 * them (not as planned), and the questions the invariants ask of them.
 *
 * <p><b>Detected.</b> A fault counts as detected {@code grace} after it was injected, and its healing {@code grace}
 * after it was healed: by then a refused connection, a 503, a reset stream, a pod gone from or added to the API
 * server, stale or garbled metrics and a reloaded config have each reached the gateway's routing (the watch, a
 * scrape, the failing request itself). A failure of a request sent inside such a window is counted as "in grace",
 * not as a violation.
 */
final class FaultTimeline {

    static final class Entry {
        final Fault fault;
        final long injectedAt;
        volatile long healedAt = Long.MAX_VALUE;

        Entry(Fault fault, long injectedAt) {
            this.fault = fault;
            this.injectedAt = injectedAt;
        }

        boolean overlaps(long from, long to) {
            return injectedAt <= to && healedAt >= from;
        }

        @Override
        public String toString() {
            return fault + String.format(java.util.Locale.ROOT, " (injected %.3fs, healed %s)", injectedAt / 1000.0,
                    healedAt == Long.MAX_VALUE ? "never" : String.format(java.util.Locale.ROOT, "%.3fs",
                            healedAt / 1000.0));
        }
    }

    private final List<Entry> entries;
    private final long grace;
    private final int listedPods;

    FaultTimeline(List<Entry> entries, long grace, int listedPods) {
        this.entries = List.copyOf(entries);
        this.grace = grace;
        this.listedPods = listedPods;
    }

    boolean podKilledDuring(CallOutcome o) {
        return entries.stream().anyMatch(e -> e.fault.kind() == Kind.POD_KILL
                && e.injectedAt >= o.sentAtMillis() - 50 && e.injectedAt <= o.endedAtMillis());
    }

    boolean replicaKilledDuring(CallOutcome o) {
        return entries.stream().anyMatch(e -> e.fault.kind() == Kind.REPLICA_KILL && e.fault.target() == o.replica()
                && e.injectedAt >= o.sentAtMillis() - 50 && e.injectedAt <= o.endedAtMillis() + 50);
    }

    /** Why a failure is not a violation, or null when nothing excuses it. */
    String excuse(CallOutcome o) {
        if (replicaKilledDuring(o)) {
            return "its replica was killed";
        }
        if (o.call().stream() && podKilledDuring(o)) {
            return "a pod was killed while it streamed";
        }
        long sent = o.sentAtMillis();
        for (Entry e : entries) {
            if ((sent >= e.injectedAt && sent <= e.injectedAt + grace)
                    || (sent >= e.healedAt && sent <= e.healedAt + grace)) {
                return "in grace of " + e.fault.kind().label();
            }
        }
        int disabled = 0;
        for (Entry e : entries) {
            if (e.fault.kind().disablesPod && e.injectedAt <= sent && e.healedAt >= sent) {
                disabled++;
            }
        }
        return disabled >= listedPods ? "no healthy pod" : null;
    }

    List<String> activeDuring(CallOutcome o) {
        List<String> out = new ArrayList<>();
        for (Entry e : entries) {
            if (e.overlaps(o.sentAtMillis() - grace, o.endedAtMillis())) {
                out.add(e.toString());
            }
        }
        return out;
    }

    /** Whether Redis was down (or within {@code margin} of it) at any time in [from, to]. */
    boolean redisDownDuring(long from, long to, long margin) {
        return entries.stream().anyMatch(e -> e.fault.kind() == Kind.REDIS_RESTART
                && e.injectedAt <= to + margin && e.healedAt + margin >= from);
    }
}
