package io.inferencegateway.simulator;

/**
 * How long one engine step takes on the GPU: Llama-3.1-8B on one H100, the BLIS fit that llm-d's
 * simulator uses (docs/configuration.md, "Simulated model servers"). A step costs a fixed launch overhead, a little per scheduled
 * sequence, a little per context token attended and ~31 µs per uncached prompt token; distinct
 * LoRA adapters in the batch slow it by 3.5% each; loading an adapter into a GPU slot stalls it.
 * The result is divided by the pod's speed factor (0.5 = a GPU half as fast).
 */
public record StepCostModel(double baseMicros, double perSequenceMicros, double perContextTokenMicros,
                            double perPrefillTokenMicros, double perAdapterFactor,
                            double adapterLoadMicros, double adapterDiskLoadMicros) {

    /** Llama-3.1-8B-Instruct on one H100 80GB. */
    public static final StepCostModel LLAMA_8B_H100 =
            new StepCostModel(6_800, 4.4, 0.076, 31, 0.035, 7_000, 65_000);

    /**
     * Duration of a step in nanoseconds.
     *
     * @param sequences      requests scheduled in the step
     * @param contextTokens  sum over them of the tokens attended (computed before plus new)
     * @param prefillTokens  uncached prompt tokens computed in the step
     * @param adapters       distinct LoRA adapters in the batch
     * @param loads          adapters loaded into a GPU slot for this step
     * @param diskLoads      of those, adapters read from disk for the first time
     * @param speed          speed factor of the pod's GPU (1 = H100)
     */
    public long stepNanos(int sequences, long contextTokens, long prefillTokens, int adapters,
                          int loads, int diskLoads, double speed) {
        double compute = baseMicros + perSequenceMicros * sequences + perContextTokenMicros * contextTokens
                + perPrefillTokenMicros * prefillTokens;
        compute *= 1 + perAdapterFactor * adapters;
        double stall = adapterLoadMicros * loads + adapterDiskLoadMicros * diskLoads;
        return Math.round((compute + stall) * 1_000 / speed);
    }
}
