package io.inferencegateway.scheduling.framework;

/**
 * Tells whether one candidate is full: has no room for another request without queueing behind a long queue or
 * preempting what runs. A pool's scheduler asks its detector whether every candidate is, to hold requests in the
 * gateway's queue while they are (pool/FlowControl.java); a scheduler without one never holds a request back. The
 * saturation filter registers itself as its pool's detector.
 */
@FunctionalInterface
public interface SaturationDetector {

    boolean saturated(EndpointState endpoint);
}
