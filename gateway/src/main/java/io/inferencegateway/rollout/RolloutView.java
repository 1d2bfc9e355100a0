package io.inferencegateway.rollout;

/**
 * One rollout as the fleet page shows it.
 *
 * @param state     running, paused, aborted, promoted or rolled_back
 * @param step      the current step, from 1; 0 before the store first answered
 * @param percent   the candidate's share now
 * @param baseline  the baseline's numbers in this step (the fleet's, with Redis), as of the last analysis
 * @param candidate the candidate's
 * @param finding   what the last analysis found
 * @param reason    why the last transition happened
 * @param shared    whether its progress is kept in Redis
 * @param storeDown whether that Redis could not be reached at the last analysis
 */
public record RolloutView(String name, String baselineModel, String candidateModel, String state, int step,
        int steps, int percent, Tally baseline, Tally candidate, String finding, String reason, boolean shared,
        boolean storeDown) {
}
