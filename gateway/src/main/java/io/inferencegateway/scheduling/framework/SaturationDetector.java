package io.inferencegateway.scheduling.framework;

/**
 * A filter that can tell, for one candidate's state, whether the pod is full. The GPU-aware policy asks the profile's
 * first such filter whether every candidate is, to hold requests in the gateway's queue while they are
 * (pool/FlowControl.java); a profile without one never holds a request back.
 */
public interface SaturationDetector {

    boolean saturated(EndpointState endpoint);
}
