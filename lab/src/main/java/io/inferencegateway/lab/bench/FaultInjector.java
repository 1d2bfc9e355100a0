package io.inferencegateway.lab.bench;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.inferencegateway.lab.bench.fleet.FaultRecord;
import io.inferencegateway.lab.bench.fleet.Fleet;
import io.inferencegateway.lab.bench.fleet.PodFault;

/**
 * Applies a scenario's pod faults at their simulated times during one run, from one timer thread of its own
 * (the load generator's pacing thread and event loop stay untouched). {@link #finish} waits for the faults
 * still due, then reads from the fleet which streams each kill cut.
 */
final class FaultInjector {

    private final Fleet fleet;
    private final double timeScale;
    private final PrintStream log;
    private final List<FaultRecord> applied = Collections.synchronizedList(new ArrayList<>());
    private final ScheduledExecutorService timer;
    private final long startWall;

    private FaultInjector(Fleet fleet, List<PodFault> faults, double timeScale, long startWall, PrintStream log) {
        this.fleet = fleet;
        this.timeScale = timeScale;
        this.startWall = startWall;
        this.log = log;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "bench-faults");
            t.setDaemon(true);
            return t;
        });
        for (PodFault fault : faults) {
            long dueWall = startWall + Math.round(fault.atSeconds() * 1e9 / timeScale);
            timer.schedule(() -> apply(fault), Math.max(0, dueWall - System.nanoTime()), TimeUnit.NANOSECONDS);
        }
    }

    /**
     * @param startWall the {@link System#nanoTime()} of the run's first intended send
     */
    static FaultInjector start(Fleet fleet, List<PodFault> faults, double timeScale, long startWall, PrintStream log) {
        return new FaultInjector(fleet, faults, timeScale, startWall, log);
    }

    private void apply(PodFault fault) {
        double at = (System.nanoTime() - startWall) * timeScale / 1e9;
        try {
            int held = fleet.inject(fault);
            applied.add(new FaultRecord(fault, at, held, List.of()));
            log.printf(Locale.ROOT, "  fault at %.1f s: pod-%d %s (it held %d requests)%n", at, fault.pod(),
                    fault.describe(), held);
        } catch (RuntimeException e) {
            log.printf(Locale.ROOT, "  fault at %.1f s: pod-%d %s failed: %s%n", at, fault.pod(), fault.describe(), e);
        }
    }

    /** Faults as applied, in time order, kills with the ids of the streams they cut. */
    List<FaultRecord> finish() throws InterruptedException {
        timer.shutdown(); // delayed tasks still run
        if (!timer.awaitTermination(60, TimeUnit.SECONDS)) {
            timer.shutdownNow();
        }
        List<FaultRecord> out = new ArrayList<>();
        synchronized (applied) {
            for (FaultRecord r : applied) {
                out.add(r.fault().kind() == PodFault.Kind.KILL ? r.withCut(fleet.cutByKill(r.fault().pod())) : r);
            }
        }
        return out;
    }
}
