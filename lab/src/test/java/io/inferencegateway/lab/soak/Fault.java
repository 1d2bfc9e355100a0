package io.inferencegateway.lab.soak;

import java.util.Locale;

/**
 * One fault of a soak's schedule: injected {@code atMillis} after the load starts, healed {@code durationMillis}
 * later (0 for the instantaneous ones: a config reload).
 *
 * @param target the pod index, the replica index, or -1 when the kind has no target
 */
record Fault(int id, long atMillis, Kind kind, int target, long durationMillis) {

    enum Kind {
        /** the pod's process dies (connections reset, port refuses) and comes back empty */
        POD_KILL(true),
        /** the pod's GPU runs at a fraction of its speed */
        POD_SLOW(false),
        /** the pod answers every generation request 503 */
        POD_503(true),
        /** the pod's /metrics answers text that is not Prometheus' */
        POD_GARBAGE_METRICS(false),
        /** the pod is deleted from the API server (its process keeps running) and created again */
        POD_LEAVE(true),
        /** a spare pod is created in the API server and deleted again */
        POD_JOIN(false),
        /** a gateway replica is SIGKILLed, out of the client's rotation, and started again */
        REPLICA_KILL(false),
        /** Redis is SIGKILLed and started again, empty */
        REDIS_RESTART(false),
        /** the config file is rewritten with a valid change */
        RELOAD_VALID(false),
        /** the config file is rewritten with a config the loader refuses, and repaired at the next reload */
        RELOAD_INVALID(false);

        /** whether the pod stops being a healthy pod of the pool while the fault lasts */
        final boolean disablesPod;

        Kind(boolean disablesPod) {
            this.disablesPod = disablesPod;
        }

        String label() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    long endMillis() {
        return atMillis + durationMillis;
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "#%d %7.1fs %-20s %s%s", id, atMillis / 1000.0, kind.label(),
                target < 0 ? "" : (kind == Kind.REPLICA_KILL ? "replica " : "pod ") + target,
                durationMillis == 0 ? "" : String.format(Locale.ROOT, " for %.1fs", durationMillis / 1000.0));
    }
}
