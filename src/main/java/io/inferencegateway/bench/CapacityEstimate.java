package io.inferencegateway.bench;

import io.inferencegateway.bench.fleet.FleetSpec;
import io.inferencegateway.bench.workload.WorkloadShape;

/**
 * A rough saturation rate (requests per simulated second) of a fleet for a workload, from the engine
 * cost model in DESIGN §7, so that {@code --load 0.85} means "85% of what the fleet can sustain".
 * It assumes a router that finds every shared prefix cached; a blind router sees less capacity on
 * prefix-heavy work, which is the effect being measured. Replace {@link #CALIBRATION} with a measured
 * value once the simulator can be driven to saturation.
 */
public final class CapacityEstimate {

    /** Fitted so that ShareGPT (230 in / 203 out) on one reference pod gives the published ~32 req/s. */
    static final double CALIBRATION = 0.6;

    private static final double STEP_BASE_SECONDS = 6.8e-3;
    private static final double STEP_PER_SEQUENCE_SECONDS = 4.4e-6;
    private static final double STEP_PER_CONTEXT_TOKEN_SECONDS = 0.076e-6;
    private static final double PREFILL_PER_TOKEN_SECONDS = 31e-6;
    private static final double PER_ADAPTER_SLOWDOWN = 0.035;
    private static final int BLOCK_TOKENS = 16;

    private CapacityEstimate() {
    }

    /** Requests per simulated second the whole fleet sustains. */
    public static double requestsPerSecond(FleetSpec fleet, WorkloadShape shape) {
        return fleet.totalSpeed() * perReferencePod(fleet, shape);
    }

    /** Requests per second of one pod at speed 1.0 with the fleet's engine limits. */
    static double perReferencePod(FleetSpec fleet, WorkloadShape shape) {
        double output = Math.max(1, shape.outputTokens());
        double sequenceTokens = shape.promptTokens() + output;
        // batch limited by max_num_seqs and by the KV blocks a sequence holds at its longest
        double kvBound = (double) fleet.kvBlocksPerPod() * BLOCK_TOKENS / sequenceTokens;
        double batch = Math.max(1, Math.min(fleet.maxNumSeqs(), kvBound));
        double context = shape.promptTokens() + output / 2;
        double step = (STEP_BASE_SECONDS + STEP_PER_SEQUENCE_SECONDS * batch
                + STEP_PER_CONTEXT_TOKEN_SECONDS * batch * context) * (1 + PER_ADAPTER_SLOWDOWN * shape.adaptersPerBatch());
        double decodeSecondsPerRequest = output / batch * step;
        double prefillSecondsPerRequest = PREFILL_PER_TOKEN_SECONDS
                * Math.max(1, shape.promptTokens() - shape.cacheablePromptTokens());
        return CALIBRATION / (decodeSecondsPerRequest + prefillSecondsPerRequest);
    }
}
