package io.inferencegateway.lab.bench;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

import io.inferencegateway.lab.bench.fleet.FleetSpec;
import io.inferencegateway.lab.bench.workload.ChatMessage;
import io.inferencegateway.lab.bench.workload.RequestSpec;
import io.inferencegateway.lab.bench.workload.Seeds;
import io.inferencegateway.lab.bench.workload.Workload;
import io.inferencegateway.simulator.EngineConfig;
import io.inferencegateway.simulator.EngineCore;
import io.inferencegateway.simulator.SimRequest;
import io.inferencegateway.simulator.Tokenizer;
import io.inferencegateway.simulator.VirtualTimeRunner;

/**
 * Measures how many requests per second a fleet can sustain on a workload, with the simulator itself
 * (the referee) in virtual time: no HTTP, no wall clock, the same answer on every machine.
 *
 * <p><b>Criterion.</b> One engine of speed 1 with the fleet's limits is kept saturated: a closed loop of
 * {@code 2 × max_num_seqs} clients, each sending its next request the moment the previous one finishes,
 * so the waiting queue never empties and every step runs the fullest batch the engine admits. After a
 * warm-up, the completion rate is the engine's service rate μ. An open-loop arrival stream below μ keeps
 * the queue bounded (it drains faster than it fills); above μ the queue grows for as long as the stream
 * lasts ({@code CapacityProbeTest} checks both sides). The fleet's capacity is μ times the sum of the
 * pods' speed factors: a pod at speed 0.5 runs every step in twice the time, so it serves half as much.
 *
 * <p><b>Which requests the reference pod sees.</b> A pod of a fleet of {@code n} serves the share of the
 * traffic that a router keeping every key (a shared-prefix group, a LoRA adapter) on one pod would give
 * it: an {@link AffinityPartition} deals the keys to {@code n} shares as evenly by traffic as it can, at
 * most {@code ceil(keys / n)} each, and unkeyed requests top the lighter shares up. Each share is probed
 * on its own; the fleet sustains {@code min over shares of (Σ speeds / n) × μ_share / traffic_share}: the
 * busiest share saturates first. With 128 prefix groups on 4 pods a share holds 32 system prompts, which
 * fit a pod's KV cache; with 16 Zipf adapters on 4 pods of 4 slots a share holds 4 adapters, and the share
 * with the hottest one carries more than a quarter of the traffic. That is what the fleet can do with
 * affinity-aware routing, so {@code --load 0.85} means 85% of it. A router that ignores prefixes or
 * adapters gets less out of the same fleet and may be past its own capacity at that load: that gap is what
 * the benchmark measures. {@link #blindRequestsPerSecond} gives the capacity with one share (every pod
 * sees every key) for comparison.
 */
public final class CapacityProbe {

    private static final long SECOND = 1_000_000_000L;
    /** Completions before the measurement starts: every client has cycled at least a few times. */
    private static final int WARMUP_ROUNDS = 4;
    /** Completions measured; enough that the rate is steady to well under 1%. */
    private static final int MEASURED = 2_000;
    /** Seed of the probe's requests: fixed, so a scenario's rate does not depend on the run seed. */
    static final long PROBE_SEED = 0x5EED;

    private static final Map<String, Estimate> CACHE = new HashMap<>();

    /** A speed-1 pod's saturated service of one share: what the probe saw. */
    public record Measurement(double requestsPerSecond, double meanBatch, double prefixHitRate, long preemptions,
                              double simulatedSeconds) {
    }

    /**
     * The fleet's capacity and how it was found.
     *
     * @param requestsPerSecond what the fleet sustains, requests per simulated second
     * @param shares            the probe of each share, in partition order
     */
    public record Estimate(double requestsPerSecond, AffinityPartition partition, List<Measurement> shares) {
    }

    private CapacityProbe() {
    }

    /**
     * Requests per simulated second the fleet sustains: the better of affinity-aware routing (see the class
     * doc) and blind routing. Blind wins when affinity cannot balance the load: 16 Zipf adapters on 16
     * adapter slots leave the share with the hottest adapter overloaded, while pods that take every adapter
     * keep their batches full with the ones loaded (at the price of making rare adapters wait).
     */
    public static double requestsPerSecond(FleetSpec fleet, Workload workload) {
        return Math.max(estimate(fleet, workload, fleet.pods().size()).requestsPerSecond(),
                blindRequestsPerSecond(fleet, workload));
    }

    /** The same without affinity: every pod sees the whole mix of keys. */
    public static double blindRequestsPerSecond(FleetSpec fleet, Workload workload) {
        return estimate(fleet, workload, 1).requestsPerSecond();
    }

    /**
     * Probes every share of the workload split {@code shares} ways. Cached per fleet shape, workload and
     * share count for the life of the process.
     */
    public static synchronized Estimate estimate(FleetSpec fleet, Workload workload, int shares) {
        String key = workload.describe() + "|" + fleet.modelName() + "|" + fleet.loraAdapters() + "|" + fleet.maxLoras()
                + "|" + fleet.kvBlocksPerPod() + "|" + fleet.maxNumSeqs() + "|" + fleet.maxNumBatchedTokens() + "|"
                + fleet.pods() + "|" + shares;
        Estimate e = CACHE.get(key);
        if (e == null) {
            AffinityPartition partition = AffinityPartition.of(workload, shares, PROBE_SEED);
            List<Measurement> measured = new ArrayList<>();
            double capacity = Double.POSITIVE_INFINITY;
            for (int i = 0; i < shares; i++) {
                Measurement m = measure(fleet, workload, partition.keys().get(i), partition.unkeyedShare()[i]);
                measured.add(m);
                double podSpeed = fleet.totalSpeed() / shares;
                capacity = Math.min(capacity, podSpeed * m.requestsPerSecond() / partition.traffic()[i]);
            }
            e = new Estimate(capacity, partition, List.copyOf(measured));
            CACHE.put(key, e);
        }
        return e;
    }

    /** One speed-1 pod with the fleet's engine limits, saturated with requests of {@code keys} and unkeyed ones. */
    static Measurement measure(FleetSpec fleet, Workload workload, Set<String> keys, double unkeyedShare) {
        EngineCore engine = new EngineCore(engineConfig(fleet));
        VirtualTimeRunner runner = new VirtualTimeRunner(engine);
        ShareStream stream = new ShareStream(workload, fleet, keys, unkeyedShare);
        int clients = 2 * fleet.maxNumSeqs();
        int warmup = WARMUP_ROUNDS * clients;
        long[] completions = {0};
        long[] measureStart = {-1};
        long[] measureEnd = {-1};
        long[] batchSum = {0};
        long[] steps = {0};
        SimRequest.Listener listener = new SimRequest.Listener() {
            @Override
            public void onFinish(SimRequest r, String reason, long now) {
                completions[0]++;
                if (completions[0] == warmup) {
                    measureStart[0] = now;
                } else if (completions[0] == warmup + MEASURED) {
                    measureEnd[0] = now;
                }
                runner.at(now, () -> stream.submitNext(engine, runner.now(), this));
            }
        };
        for (int c = 0; c < clients; c++) {
            stream.submitNext(engine, 0, listener);
        }
        long hitsBefore = 0;
        long queriesBefore = 0;
        long preemptionsBefore = 0;
        // step in slices so the batch size can be sampled and the end detected
        long limit = 3_600 * SECOND;
        while (measureEnd[0] < 0 && runner.now() < limit) {
            runner.runUntil(runner.now() + 10_000_000L);
            if (measureStart[0] >= 0) {
                if (steps[0] == 0) {
                    hitsBefore = engine.metrics().prefixHits();
                    queriesBefore = engine.metrics().prefixQueries();
                    preemptionsBefore = engine.metrics().preemptions();
                }
                batchSum[0] += engine.numRunning();
                steps[0]++;
            }
        }
        if (measureEnd[0] < 0) {
            throw new IllegalStateException("the capacity probe did not finish within an hour of simulated time");
        }
        double seconds = (measureEnd[0] - measureStart[0]) / 1e9;
        long queries = engine.metrics().prefixQueries() - queriesBefore;
        return new Measurement(MEASURED / seconds, steps[0] == 0 ? 0 : (double) batchSum[0] / steps[0],
                queries == 0 ? 0 : (double) (engine.metrics().prefixHits() - hitsBefore) / queries,
                engine.metrics().preemptions() - preemptionsBefore, measureEnd[0] / 1e9);
    }

    /** The engine of one pod as the simulator fleet would start it, at speed 1. */
    static EngineConfig engineConfig(FleetSpec fleet) {
        EngineConfig d = EngineConfig.defaults();
        return new EngineConfig(fleet.modelName(), fleet.loraAdapters(), Math.max(1, fleet.maxLoras()),
                fleet.kvBlocksPerPod(), d.blockSize(), fleet.maxNumBatchedTokens(), fleet.maxNumSeqs(), d.maxModelLen(),
                1.0, d.cost(), d.seed());
    }

    /**
     * The requests of one share, in workload order, tokenized as a simulated pod does it: those whose key
     * is in the share, and an even {@code unkeyedShare} of the unkeyed ones.
     */
    static final class ShareStream {
        private final Workload workload;
        private final FleetSpec fleet;
        private final Set<String> keys;
        private final double unkeyedShare;
        private final SplittableRandom content = Seeds.CONTENT.stream(PROBE_SEED);
        private int index;
        private double unkeyedCredit;

        ShareStream(Workload workload, FleetSpec fleet, Set<String> keys, double unkeyedShare) {
            if (keys.isEmpty() && !(unkeyedShare > 0)) {
                throw new IllegalArgumentException("an empty share");
            }
            this.workload = workload;
            this.fleet = fleet;
            this.keys = keys;
            this.unkeyedShare = unkeyedShare;
        }

        /** The next request of the share. */
        RequestSpec next() {
            while (true) {
                RequestSpec spec = workload.next(index++, content);
                if (inShare(spec)) {
                    return spec;
                }
            }
        }

        private boolean inShare(RequestSpec spec) {
            if (!spec.key().isEmpty()) {
                return keys.contains(spec.key());
            }
            // deal unkeyed requests evenly: keep one whenever the accumulated share reaches a whole request
            unkeyedCredit += unkeyedShare;
            if (unkeyedCredit >= 1 - 1e-9) {
                unkeyedCredit -= 1;
                return true;
            }
            return false;
        }

        void submitNext(EngineCore engine, long now, SimRequest.Listener listener) {
            RequestSpec spec = next();
            String adapter = fleet.loraAdapters().contains(spec.model()) ? spec.model() : null;
            engine.submit(adapter, tokens(spec.messages()), spec.maxTokens(), now, listener);
        }

        static int[] tokens(List<ChatMessage> messages) {
            List<Tokenizer.ChatMessage> list = new ArrayList<>(messages.size());
            for (ChatMessage m : messages) {
                list.add(new Tokenizer.ChatMessage(m.role(), m.content()));
            }
            return Tokenizer.encode(Tokenizer.chatPromptText(list));
        }
    }
}
