package io.inferencegateway.simulator;

import java.util.concurrent.TimeUnit;

import io.netty.channel.EventLoop;
import io.netty.util.concurrent.ScheduledFuture;

/**
 * Runs an {@link EngineCore} in real time on one Netty event loop: each step is scheduled to end
 * step-time / time-scale later. The engine's virtual clock follows the wall clock times the time
 * scale; a step starts where the previous one ended unless the loop woke up so late that the
 * timeline would drift (then it resyncs), so timer jitter does not add up into slower steps.
 * Every method must run on {@link #loop()}.
 */
final class PodDriver {

    /** How far (real time) the engine timeline may trail the wall clock before it resyncs. */
    private static final long MAX_LAG_NANOS = 3_000_000;

    private final EventLoop loop;
    private final EngineCore engine;
    private final double timeScale;
    private final long originNanos;
    private long lastStepEnd;
    private long stepEnd = -1;
    private ScheduledFuture<?> pending;
    private boolean stopped;
    private long steps;
    private long lateSteps;
    private long lostNanos;

    PodDriver(EventLoop loop, EngineCore engine, double timeScale, long originNanos) {
        this.loop = loop;
        this.engine = engine;
        this.timeScale = timeScale;
        this.originNanos = originNanos;
    }

    EventLoop loop() {
        return loop;
    }

    EngineCore engine() {
        return engine;
    }

    /** Virtual (model) time now, in ns. */
    long virtualNow() {
        return (long) ((System.nanoTime() - originNanos) * timeScale);
    }

    SimRequest submit(String adapter, int[] prompt, int maxTokens, SimRequest.Listener listener) {
        SimRequest r = engine.submit(adapter, prompt, maxTokens, virtualNow(), listener);
        kick(false);
        return r;
    }

    void abort(SimRequest r) {
        engine.abort(r, Math.max(virtualNow(), lastStepEnd));
    }

    /**
     * Starts a step if none runs and there is work: right after the previous one when chaining
     * (unless the timeline trails too far), else now.
     */
    private void kick(boolean chained) {
        if (stopped || stepEnd >= 0 || !engine.hasWork()) {
            return;
        }
        long now = virtualNow();
        long start = chained ? Math.max(lastStepEnd, now - (long) (MAX_LAG_NANOS * timeScale)) : Math.max(now, lastStepEnd);
        if (chained && start > lastStepEnd) {
            // the loop woke up too late: the model timeline loses this gap
            lateSteps++;
            lostNanos += start - lastStepEnd;
        }
        long duration = engine.beginStep(start);
        if (duration < 0) {
            return;
        }
        stepEnd = start + duration;
        steps++;
        long realDelay = (long) ((stepEnd - now) / timeScale);
        pending = loop.schedule(this::endStep, Math.max(0, realDelay), TimeUnit.NANOSECONDS);
    }

    private void endStep() {
        if (stopped) {
            return;
        }
        long end = stepEnd;
        stepEnd = -1;
        lastStepEnd = end;
        try {
            engine.finishStep(end);
        } finally {
            // a failing listener (a broken connection) must not stall the engine
            kick(true);
        }
    }

    /** Steps run, steps that started late, and model time lost to late starts (ns). */
    long[] timeline() {
        return new long[] {steps, lateSteps, lostNanos};
    }

    /** Stops stepping (the pod was killed). */
    void stop() {
        stopped = true;
        if (pending != null) {
            pending.cancel(false);
        }
    }
}
