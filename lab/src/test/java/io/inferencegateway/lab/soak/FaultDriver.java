package io.inferencegateway.lab.soak;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

import io.inferencegateway.simulator.RedisServer;
import io.inferencegateway.simulator.SimulatedPod;

/**
 * Plays the fault schedule on time: each fault is injected at its moment and healed at its end, and both moments go
 * into the timeline as they happened. A replica's restart runs on a thread of its own (the JVM takes seconds to be
 * ready) and is healed when it answers {@code /ready}.
 */
final class FaultDriver implements Runnable {

    /** A slowed pod's speed: a GPU throttled to 60 %. */
    static final double SLOW = 0.6;

    private record Step(long at, Fault fault, boolean heal) {
    }

    private final List<Fault> faults;
    private final SoakFleet fleet;
    private final SoakReplicas replicas;
    private final RedisServer redis;
    private final SoakConfig config;
    private final List<FaultTimeline.Entry> timeline;
    private final LongSupplier clock;
    private final PrintStream log;
    private final Map<Integer, FaultTimeline.Entry> open = new ConcurrentHashMap<>();
    private final List<Thread> restarts = new ArrayList<>();

    FaultDriver(List<Fault> faults, SoakFleet fleet, SoakReplicas replicas, RedisServer redis, SoakConfig config,
                List<FaultTimeline.Entry> timeline, LongSupplier clock, PrintStream log) {
        this.faults = faults;
        this.fleet = fleet;
        this.replicas = replicas;
        this.redis = redis;
        this.config = config;
        this.timeline = timeline;
        this.clock = clock;
        this.log = log;
    }

    @Override
    public void run() {
        List<Step> steps = new ArrayList<>();
        for (Fault f : faults) {
            steps.add(new Step(f.atMillis(), f, false));
            if (f.durationMillis() > 0) {
                steps.add(new Step(f.endMillis(), f, true));
            }
        }
        steps.sort(Comparator.comparingLong(Step::at).thenComparing(s -> !s.heal()));
        try {
            for (Step s : steps) {
                long wait = s.at() - clock.getAsLong();
                if (wait > 0) {
                    Thread.sleep(wait);
                }
                try {
                    if (s.heal()) {
                        heal(s.fault());
                    } else {
                        inject(s.fault());
                    }
                } catch (Exception e) {
                    log.println("soak: fault " + s.fault() + (s.heal() ? " healing" : "") + " failed: " + e);
                }
            }
            for (Thread t : restarts) {
                t.join();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void inject(Fault f) throws Exception {
        FaultTimeline.Entry entry = new FaultTimeline.Entry(f, clock.getAsLong());
        timeline.add(entry);
        open.put(f.id(), entry);
        SimulatedPod pod = f.target() >= 0 && f.kind().name().startsWith("POD") ? fleet.pod(f.target()) : null;
        switch (f.kind()) {
            case POD_KILL -> pod.kill();
            case POD_SLOW -> pod.speed(SLOW);
            case POD_503 -> pod.inferenceUnavailable(true);
            case POD_GARBAGE_METRICS -> pod.garbleMetrics();
            case POD_LEAVE -> fleet.unlist(f.target());
            case POD_JOIN -> fleet.list(f.target());
            case REPLICA_KILL -> replicas.kill(f.target());
            case REDIS_RESTART -> redis.stop();
            case RELOAD_VALID -> config.reload(true);
            case RELOAD_INVALID -> config.reload(false);
            default -> throw new IllegalStateException(f.kind().name());
        }
        if (f.durationMillis() == 0) {
            entry.healedAt = entry.injectedAt;
        }
    }

    private void heal(Fault f) throws Exception {
        FaultTimeline.Entry entry = open.remove(f.id());
        SimulatedPod pod = f.target() >= 0 && f.kind().name().startsWith("POD") ? fleet.pod(f.target()) : null;
        switch (f.kind()) {
            case POD_KILL -> pod.revive();
            case POD_SLOW -> pod.speed(1.0);
            case POD_503 -> pod.inferenceUnavailable(false);
            case POD_GARBAGE_METRICS -> pod.healMetrics();
            case POD_LEAVE -> fleet.list(f.target());
            case POD_JOIN -> fleet.unlist(f.target());
            case REPLICA_KILL -> {
                Thread t = new Thread(() -> {
                    try {
                        replicas.restart(f.target());
                    } catch (Exception e) {
                        log.println("soak: replica " + f.target() + " did not come back: " + e);
                    }
                    entry.healedAt = clock.getAsLong();
                }, "soak-replica-restart");
                restarts.add(t);
                t.start();
                return;
            }
            case REDIS_RESTART -> redis.restart();
            default -> throw new IllegalStateException(f.kind().name());
        }
        if (entry != null) {
            entry.healedAt = clock.getAsLong();
        }
    }
}
