package io.inferencegateway.core;

/** A monotonic clock in nanoseconds, injected so that tests control time. */
@FunctionalInterface
public interface NanoClock {

    NanoClock SYSTEM = System::nanoTime;

    long nanoTime();
}
