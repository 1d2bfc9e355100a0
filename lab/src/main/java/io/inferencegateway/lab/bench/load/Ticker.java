package io.inferencegateway.lab.bench.load;

/** A monotonic nanosecond clock, injected so that tests can control time. */
@FunctionalInterface
public interface Ticker {

    Ticker SYSTEM = System::nanoTime;

    long nanoTime();
}
