package io.inferencegateway.lab.soak;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

import io.inferencegateway.lab.soak.Fault.Kind;

/**
 * The seeded schedule of overlapping faults. Faults arrive at random (exponential gaps of mean
 * {@code meanGapMillis}) and last 3 to 15 s, so several are usually active at once; config reloads come every 3 to 7 s
 * on top. Constraints keep the run meaningful rather than dead: a pod has one fault at a time, at most half the listed
 * pods are disabled (killed, answering 503, or gone from discovery) at once, one replica is down at a time and never
 * twice within 30 s, Redis has one outage at a time. Every fault is healed {@code quietTailMillis} before the end of the
 * load, so the end-of-run checks see a healed system. The same seed gives the same schedule.
 */
final class FaultPlan {

    private FaultPlan() {
    }

    static List<Fault> generate(long seed, long loadMillis, long meanGapMillis, int listedPods, int spares,
                                long quietTailMillis) {
        SplittableRandom rng = new SplittableRandom(seed ^ 0xFA17L);
        long lastEnd = loadMillis - quietTailMillis;
        List<Fault> faults = new ArrayList<>();
        int total = listedPods + spares;
        long[] podBusyUntil = new long[total];
        List<Fault> disabling = new ArrayList<>();
        long replicaFreeAt = 0;
        long redisFreeAt = 0;
        int id = 0;
        long t = 5_000; // a few seconds of undisturbed load first
        while (true) {
            t += Math.max(200, (long) (-Math.log(1 - rng.nextDouble()) * meanGapMillis));
            if (t >= lastEnd - 3_000) {
                break;
            }
            long duration = 3_000 + rng.nextLong(12_000);
            duration = Math.min(duration, lastEnd - t);
            Kind kind = pick(rng);
            long now = t;
            disabling.removeIf(f -> f.endMillis() <= now);
            switch (kind) {
                case POD_KILL, POD_503, POD_LEAVE, POD_SLOW, POD_GARBAGE_METRICS -> {
                    if (kind.disablesPod && disabling.size() >= listedPods / 2) {
                        continue;
                    }
                    int pod = freePod(rng, podBusyUntil, 0, listedPods, t);
                    if (pod < 0) {
                        continue;
                    }
                    Fault f = new Fault(id++, t, kind, pod, duration);
                    podBusyUntil[pod] = f.endMillis() + 1_000;
                    faults.add(f);
                    if (kind.disablesPod) {
                        disabling.add(f);
                    }
                }
                case POD_JOIN -> {
                    int pod = freePod(rng, podBusyUntil, listedPods, total, t);
                    if (pod < 0) {
                        continue;
                    }
                    Fault f = new Fault(id++, t, kind, pod, duration);
                    podBusyUntil[pod] = f.endMillis() + 1_000;
                    faults.add(f);
                }
                case REPLICA_KILL -> {
                    if (t < replicaFreeAt) {
                        continue;
                    }
                    Fault f = new Fault(id++, t, kind, rng.nextInt(2), Math.min(duration, 6_000));
                    replicaFreeAt = f.endMillis() + 30_000;
                    faults.add(f);
                }
                case REDIS_RESTART -> {
                    if (t < redisFreeAt) {
                        continue;
                    }
                    Fault f = new Fault(id++, t, kind, -1, Math.min(duration, 5_000));
                    redisFreeAt = f.endMillis() + 10_000;
                    faults.add(f);
                }
                default -> throw new IllegalStateException(kind.name());
            }
        }
        for (long r = 4_000 + rng.nextLong(3_000); r < lastEnd; r += 3_000 + rng.nextLong(4_000)) {
            faults.add(new Fault(id++, r, rng.nextInt(10) < 3 ? Kind.RELOAD_INVALID : Kind.RELOAD_VALID, -1, 0));
        }
        // the last reload is a valid one: the run ends on a config the gateways accept
        faults.add(new Fault(id, lastEnd, Kind.RELOAD_VALID, -1, 0));
        faults.sort(Comparator.comparingLong(Fault::atMillis).thenComparingInt(Fault::id));
        return List.copyOf(faults);
    }

    private static Kind pick(SplittableRandom rng) {
        int r = rng.nextInt(100);
        if (r < 16) {
            return Kind.POD_KILL;
        } else if (r < 30) {
            return Kind.POD_SLOW;
        } else if (r < 45) {
            return Kind.POD_503;
        } else if (r < 60) {
            return Kind.POD_GARBAGE_METRICS;
        } else if (r < 72) {
            return Kind.POD_LEAVE;
        } else if (r < 84) {
            return Kind.POD_JOIN;
        } else if (r < 92) {
            return Kind.REPLICA_KILL;
        }
        return Kind.REDIS_RESTART;
    }

    private static int freePod(SplittableRandom rng, long[] busyUntil, int from, int to, long t) {
        int start = rng.nextInt(to - from);
        for (int k = 0; k < to - from; k++) {
            int pod = from + (start + k) % (to - from);
            if (busyUntil[pod] <= t) {
                return pod;
            }
        }
        return -1;
    }
}
