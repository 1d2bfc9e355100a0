package io.inferencegateway.lab.bench.fleet;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Samples a fleet's pods on its own thread while a run goes on, then sums the samples up per pod. A
 * fleet that cannot be sampled (an empty sample list) gives no stats.
 */
public final class PodSampler implements AutoCloseable {

    private final FleetSpec spec;
    private final Supplier<List<PodSample>> source;
    private final long periodMillis;
    private final Thread thread;
    private final Object lock = new Object();
    private volatile boolean running = true;
    private int samples;
    private double[] waitingSum;
    private double[] runningSum;
    private int[] peakWaiting;
    private List<PodSample> last = List.of();

    private PodSampler(FleetSpec spec, Supplier<List<PodSample>> source, long periodMillis) {
        this.spec = spec;
        this.source = source;
        this.periodMillis = periodMillis;
        int n = spec.pods().size();
        waitingSum = new double[n];
        runningSum = new double[n];
        peakWaiting = new int[n];
        this.thread = new Thread(this::loop, "bench-pod-sampler");
        thread.setDaemon(true);
        thread.start();
    }

    public static PodSampler start(FleetSpec spec, Supplier<List<PodSample>> source, long periodMillis) {
        return new PodSampler(spec, source, periodMillis);
    }

    private void loop() {
        while (running) {
            sampleOnce();
            try {
                Thread.sleep(periodMillis); // pacing a sampler, not synchronising anything
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private void sampleOnce() {
        List<PodSample> now;
        try {
            now = source.get();
        } catch (RuntimeException e) {
            return; // a pod closing under us: skip the sample
        }
        if (now.size() != waitingSum.length) {
            return;
        }
        synchronized (lock) {
            samples++;
            for (int i = 0; i < now.size(); i++) {
                PodSample s = now.get(i);
                waitingSum[i] += s.waiting();
                runningSum[i] += s.running();
                peakWaiting[i] = Math.max(peakWaiting[i], s.waiting());
            }
            last = now;
        }
    }

    /** Stops sampling, takes a last sample for the counters and returns one entry per pod (empty if none). */
    public List<PodStats> finish() {
        close();
        sampleOnce();
        synchronized (lock) {
            List<PodStats> stats = new ArrayList<>();
            if (samples == 0 || last.isEmpty()) {
                return stats;
            }
            for (int i = 0; i < last.size(); i++) {
                PodSample s = last.get(i);
                PodSpec pod = spec.pods().get(i);
                stats.add(new PodStats(pod.name(), pod.speedFactor(), s.served(), waitingSum[i] / samples,
                        peakWaiting[i], runningSum[i] / samples,
                        s.prefixQueries() == 0 ? Double.NaN : (double) s.prefixHits() / s.prefixQueries(),
                        s.preemptions()));
            }
            return stats;
        }
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
