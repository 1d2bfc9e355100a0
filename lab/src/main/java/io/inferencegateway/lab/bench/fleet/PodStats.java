package io.inferencegateway.lab.bench.fleet;

/**
 * What one pod did during a run: how much it served and how long its queue got, sampled from the
 * simulator a few times per wall second.
 *
 * @param served        requests completed
 * @param meanWaiting   engine queue length, averaged over the samples
 * @param peakWaiting   longest engine queue seen
 * @param meanRunning   running batch size, averaged over the samples
 * @param prefixHitRate prompt tokens served from the prefix cache over prompt tokens looked up; NaN if none
 * @param preemptions   requests preempted for lack of KV blocks
 */
public record PodStats(String name, double speedFactor, long served, double meanWaiting, int peakWaiting,
                       double meanRunning, double prefixHitRate, long preemptions) {
}
