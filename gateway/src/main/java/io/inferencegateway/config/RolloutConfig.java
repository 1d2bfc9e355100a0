package io.inferencegateway.config;

import java.net.URI;
import java.time.Duration;
import java.util.List;

/**
 * A validated automatic canary of one model rewrite ({@code spec.modelRewrites[].rollout}, docs/rollouts.md).
 *
 * @param name      the rewrite's client-facing model name, which names the rollout too
 * @param baseline  the target model the traffic comes from
 * @param candidate the target model it goes to
 * @param state     what the user asked: run, hold where it is, or give the baseline everything
 * @param steps     the candidate's shares in order; the last is 100
 * @param analysis  what each step must show before the next
 * @param redisUrl  where its progress and counts are kept across restarts and replicas; null: this process only
 */
public record RolloutConfig(String name, String baseline, String candidate, RolloutState state, List<Step> steps,
        Analysis analysis, URI redisUrl) {

    public RolloutConfig {
        steps = List.copyOf(steps);
    }

    /** What the user asked of the rollout in the config. */
    public enum RolloutState {
        RUNNING, PAUSED, ABORTED
    }

    /** The candidate's share in percent, held at least {@code duration} (zero for the last step). */
    public record Step(int weight, Duration duration) {
    }

    /**
     * A step passes with at least {@code minSamples} requests on each side and the candidate within the margins: error
     * and refusal rates at most {@code errorRate}/{@code refusalRate} above the baseline's (fractions), TTFT and TPOT
     * p90 at most {@code ttftP90}/{@code tpotP90} times the baseline's; checked every {@code interval}.
     */
    public record Analysis(int minSamples, Duration interval, double errorRate, double refusalRate, double ttftP90,
            double tpotP90) {
    }
}
