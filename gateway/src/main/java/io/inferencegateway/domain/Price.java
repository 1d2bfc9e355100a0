package io.inferencegateway.domain;

/** What a million tokens served by a global tier's target cost, input (prompt) and output (completion) apart. */
public record Price(double inputPerMillion, double outputPerMillion) {

    public static final Price FREE = new Price(0, 0);

    /** What {@code input} prompt and {@code output} completion tokens cost. */
    public double cost(long input, long output) {
        return (input * inputPerMillion + output * outputPerMillion) / 1_000_000.0;
    }
}
