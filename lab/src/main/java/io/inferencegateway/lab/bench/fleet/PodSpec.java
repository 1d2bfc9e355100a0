package io.inferencegateway.lab.bench.fleet;

/**
 * One simulated model server.
 *
 * @param speedFactor 1.0 is the reference GPU (an H100 for Llama-3.1-8B); 0.5 takes twice as long for
 *                    every step
 */
public record PodSpec(String name, double speedFactor) {

    public PodSpec {
        if (!(speedFactor > 0)) {
            throw new IllegalArgumentException("speedFactor must be positive, got " + speedFactor);
        }
    }
}
