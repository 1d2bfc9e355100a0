package io.inferencegateway.lab.bench.fleet;

import java.util.List;

/**
 * A fault as it happened in a run.
 *
 * @param appliedAtSeconds simulated seconds after the first intended send when it was applied
 * @param heldRequests     requests the pod was running or queueing at that moment
 * @param cutRequestIds    for a kill: the X-Request-Ids of the streams it cut (from the simulator)
 */
public record FaultRecord(PodFault fault, double appliedAtSeconds, int heldRequests, List<String> cutRequestIds) {

    public FaultRecord {
        cutRequestIds = List.copyOf(cutRequestIds);
    }

    public FaultRecord withCut(List<String> ids) {
        return new FaultRecord(fault, appliedAtSeconds, heldRequests, ids);
    }
}
