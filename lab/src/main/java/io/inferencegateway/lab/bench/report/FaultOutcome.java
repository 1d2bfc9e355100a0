package io.inferencegateway.lab.bench.report;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import io.inferencegateway.lab.bench.fleet.FaultRecord;
import io.inferencegateway.lab.bench.fleet.PodFault;
import io.inferencegateway.lab.bench.load.RequestResult;

/**
 * Which failures of a run with faults the faults explain. A stream a kill cut after its first byte cannot
 * be failed over (the client has part of the answer); every other failure (a refused connection, a 503
 * passed through, a timeout) is one the gateway should have hidden.
 *
 * @param failed        requests that neither succeeded nor were refused with 429
 * @param cutByKill     of those, the ones whose stream a kill cut (matched by X-Request-Id)
 * @param unexplained   the others, oldest first
 * @param causes        every failure's cause (outcome and error text, abbreviated), counted
 */
public record FaultOutcome(int failed, int cutByKill, List<RequestResult> unexplained, Map<String, Integer> causes) {

    public static FaultOutcome of(List<RequestResult> results, List<FaultRecord> faults) {
        Set<String> cut = new HashSet<>();
        for (FaultRecord f : faults) {
            if (f.fault().kind() == PodFault.Kind.KILL) {
                cut.addAll(f.cutRequestIds());
            }
        }
        int failed = 0;
        int explained = 0;
        List<RequestResult> unexplained = new ArrayList<>();
        Map<String, Integer> causes = new TreeMap<>();
        for (RequestResult r : results) {
            if (r.ok() || r.refused()) {
                continue;
            }
            failed++;
            causes.merge(r.outcome() + ": " + shorten(r.error()), 1, Integer::sum);
            if (cut.contains(RequestResult.requestId(r.index()))) {
                explained++;
            } else {
                unexplained.add(r);
            }
        }
        return new FaultOutcome(failed, explained, List.copyOf(unexplained), causes);
    }

    /** Error texts carry request-specific details after a colon; keep the kind of failure. */
    private static String shorten(String error) {
        String oneLine = error.replace('\n', ' ');
        return oneLine.length() <= 90 ? oneLine : oneLine.substring(0, 90) + "…";
    }
}
