package io.inferencegateway.rollout;

import java.util.Locale;
import java.util.Map;

/**
 * Where a rollout stands, as its store keeps it: the step, when the step's clock started, whether the clock stands
 * (paused or aborted in the config), the verdict so far. Every change bumps {@code rev}, and a change is made only
 * over the revision it was decided on, so of replicas deciding the same change one makes it.
 *
 * @param step            index into the rollout's steps
 * @param stepStartMillis when the step began, moved on by the time its clock stood
 * @param pausedAtMillis  when the clock stopped; 0 while it runs
 * @param phase           running, or the verdict
 * @param reason          why the last transition happened (the breach, for a rollback); empty at first
 * @param rev             the store's revision of this progress
 */
public record Progress(int step, long stepStartMillis, long pausedAtMillis, RolloutPhase phase, String reason,
        long rev) {

    /** How the rollout stands, whatever the config asks. */
    public enum RolloutPhase {
        /** Stepping on. */
        RUNNING,
        /** Passed every step: the candidate has all of the traffic. */
        PROMOTED,
        /** Breached a margin: the baseline has all of the traffic. */
        ROLLED_BACK;

        String label() {
            return name().toLowerCase(Locale.ROOT);
        }

        static RolloutPhase of(String label) {
            return valueOf(label.toUpperCase(Locale.ROOT));
        }
    }

    /** A rollout that has just begun, at {@code nowMillis}. */
    static Progress start(long nowMillis) {
        return new Progress(0, nowMillis, 0, RolloutPhase.RUNNING, "", 0);
    }

    Progress with(int nextStep, long start, long pausedAt, RolloutPhase nextPhase, String why) {
        return new Progress(nextStep, start, pausedAt, nextPhase, why, rev);
    }

    /** As the Redis hash holds it. */
    static Progress of(Map<String, String> hash) {
        return new Progress(Integer.parseInt(hash.get("step")), Long.parseLong(hash.get("start")),
                Long.parseLong(hash.get("paused")), RolloutPhase.of(hash.get("phase")), hash.getOrDefault("reason", ""),
                Long.parseLong(hash.get("rev")));
    }
}
