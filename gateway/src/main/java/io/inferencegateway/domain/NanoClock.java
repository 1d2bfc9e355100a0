package io.inferencegateway.domain;

/** A monotonic clock in nanoseconds, injected so that tests control time. */
@FunctionalInterface
public interface NanoClock {

    NanoClock SYSTEM = System::nanoTime;

    long nanoTime();
}
