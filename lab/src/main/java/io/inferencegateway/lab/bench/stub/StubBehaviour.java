package io.inferencegateway.lab.bench.stub;

import java.time.Duration;

/**
 * How a stub model server answers, in simulated time. A request waits for one of {@code slots}
 * (FIFO), then its first token comes after {@code firstToken + perPromptToken × prompt tokens} and
 * each further token {@code interToken} later, all divided by the speed factor and the time scale.
 * There is no KV cache, no batching cost and no adapter: it is a yardstick for the load generator,
 * not a model of an engine.
 *
 * @param slots requests served at once; the rest queue
 */
public record StubBehaviour(Duration firstToken, Duration perPromptToken, Duration interToken, int slots,
                            double speedFactor, double timeScale) {

    public StubBehaviour {
        if (slots < 1 || !(speedFactor > 0) || !(timeScale > 0)) {
            throw new IllegalArgumentException("slots, speedFactor and timeScale must be positive");
        }
    }

    /** 50 ms to the first token, 10 ms between tokens, no queueing, real time. */
    public static StubBehaviour fixed(Duration firstToken, Duration interToken) {
        return new StubBehaviour(firstToken, Duration.ZERO, interToken, Integer.MAX_VALUE, 1.0, 1.0);
    }

    public StubBehaviour withTimeScale(double scale) {
        return new StubBehaviour(firstToken, perPromptToken, interToken, slots, speedFactor, scale);
    }

    public StubBehaviour withSpeedFactor(double speed) {
        return new StubBehaviour(firstToken, perPromptToken, interToken, slots, speed, timeScale);
    }

    /** Simulated delay from the start of service to the first token. */
    long firstTokenNanos(int promptTokens) {
        return (firstToken.toNanos() + perPromptToken.toNanos() * promptTokens);
    }

    /** Wall-clock nanoseconds for simulated work at this pod's speed. */
    long toWall(long simulatedNanos) {
        return Math.round(simulatedNanos / speedFactor / timeScale);
    }
}
