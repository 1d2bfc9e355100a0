package io.inferencegateway.lab.bench.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.inferencegateway.lab.bench.load.LongList;
import io.inferencegateway.lab.bench.load.RequestResult;
import io.inferencegateway.lab.bench.workload.SloClass;

/**
 * One latency class of a run: how many of its requests met their targets ({@link SloVerdict}), and why the others
 * missed.
 *
 * @param priority   the priority class its requests were sent with (the first seen)
 * @param requests   requests sent in the class
 * @param notServed  refused (429) or failed
 * @param goodput    requests that met their targets per simulated second of the arrival span
 * @param ttft       TTFT of the class's served requests
 * @param tpot       TPOT of its served requests with at least two output tokens
 */
public record SloSummary(SloClass slo, String priority, int requests, int met, int ttftMissed, int tpotMissed,
                         int notServed, double goodput, LatencySummary ttft, LatencySummary tpot) {

    /** Share of the sent requests that met their targets; NaN for an empty class. */
    public double attainment() {
        return requests == 0 ? Double.NaN : (double) met / requests;
    }

    /**
     * Per class in the order first seen; requests without targets are left out.
     *
     * @param arrivalSeconds the simulated span the arrivals were drawn over: every policy is offered the same
     *                       requests over it, so goodputs compare over one denominator (a late finisher is already
     *                       counted as a miss)
     */
    static List<SloSummary> of(List<RequestResult> results, double arrivalSeconds) {
        Map<String, List<RequestResult>> byClass = new LinkedHashMap<>();
        for (RequestResult r : results) {
            if (!r.slo().isNone()) {
                byClass.computeIfAbsent(r.slo().name(), k -> new ArrayList<>()).add(r);
            }
        }
        List<SloSummary> out = new ArrayList<>();
        for (List<RequestResult> inClass : byClass.values()) {
            int[] verdicts = new int[SloVerdict.values().length];
            LongList ttft = new LongList();
            LongList tpot = new LongList();
            for (RequestResult r : inClass) {
                verdicts[SloVerdict.of(r).ordinal()]++;
                if (r.ok()) {
                    ttft.add(r.ttftNanos());
                    if (r.tpotNanos() >= 0) {
                        tpot.add(r.tpotNanos());
                    }
                }
            }
            int met = verdicts[SloVerdict.MET.ordinal()];
            RequestResult first = inClass.get(0);
            out.add(new SloSummary(first.slo(), first.priority(), inClass.size(), met,
                    verdicts[SloVerdict.TTFT_MISSED.ordinal()], verdicts[SloVerdict.TPOT_MISSED.ordinal()],
                    verdicts[SloVerdict.NOT_SERVED.ordinal()], perSecond(met, arrivalSeconds),
                    LatencySummary.of(Distribution.of(ttft.toArray())), LatencySummary.of(Distribution.of(tpot.toArray()))));
        }
        return out;
    }

    static double perSecond(int count, double seconds) {
        return seconds > 0 ? count / seconds : Double.NaN;
    }
}
