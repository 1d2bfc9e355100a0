package io.inferencegateway.lab.bench.workload;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Every request of one run, fixed before the run starts: the same seed, workload and arrival process
 * always give the same arrival times and bodies, whichever policy is measured. Building it up front
 * also keeps the random draws and text generation out of the timed path.
 */
public final class RequestPlan {

    private final List<PlannedRequest> requests;
    private final long durationNanos;

    private RequestPlan(List<PlannedRequest> requests, long durationNanos) {
        this.requests = List.copyOf(requests);
        this.durationNanos = durationNanos;
    }

    /**
     * Arrivals from time 0 until {@code duration} (simulated) or {@code maxRequests}, whichever comes
     * first.
     */
    public static RequestPlan build(Workload workload, ArrivalProcess arrivals, long seed, Duration duration,
                                    int maxRequests) {
        if (maxRequests < 1) {
            throw new IllegalArgumentException("maxRequests must be positive, got " + maxRequests);
        }
        SplittableRandom arrivalStream = Seeds.ARRIVALS.stream(seed);
        SplittableRandom contentStream = Seeds.CONTENT.stream(seed);
        long limit = duration.toNanos();
        List<PlannedRequest> planned = new ArrayList<>();
        long t = 0;
        while (planned.size() < maxRequests) {
            t = arrivals.nextArrival(t, arrivalStream);
            if (t >= limit) {
                break;
            }
            int index = planned.size();
            planned.add(new PlannedRequest(index, t, workload.next(index, contentStream)));
        }
        return new RequestPlan(planned, limit);
    }

    /** A hand-made plan, e.g. a fixed trace; requests must be in index order. */
    public static RequestPlan of(List<PlannedRequest> requests, long durationNanos) {
        for (int i = 0; i < requests.size(); i++) {
            if (requests.get(i).index() != i) {
                throw new IllegalArgumentException("request " + i + " has index " + requests.get(i).index());
            }
            if (i > 0 && requests.get(i).offsetNanos() < requests.get(i - 1).offsetNanos()) {
                throw new IllegalArgumentException("request " + i + " is due before request " + (i - 1));
            }
        }
        return new RequestPlan(requests, durationNanos);
    }

    public List<PlannedRequest> requests() {
        return requests;
    }

    public int size() {
        return requests.size();
    }

    /** The simulated duration the arrivals were drawn over. */
    public long durationNanos() {
        return durationNanos;
    }

    public long totalOutputTokens() {
        return requests.stream().mapToLong(r -> r.spec().maxTokens()).sum();
    }
}
