package io.inferencegateway.scheduling.framework;

import java.util.List;

/**
 * A filter that judges each candidate on its own: it keeps it, or names the outcome it removes it for. The one way a
 * filter removes candidates: the list it was given when it keeps them all (no copy), else the cycle's kept list, each
 * removal counted under its outcome ({@link SchedulingCycle#removed}).
 */
public interface CandidateFilter extends Filter {

    /** Null to keep {@code candidate}; otherwise the outcome (a snake_case constant) it is removed for. */
    String removal(SchedulingCycle cycle, EndpointState candidate);

    @Override
    default List<EndpointState> filter(SchedulingCycle cycle, List<EndpointState> endpoints) {
        int n = endpoints.size();
        int first = 0;
        String why = null;
        while (first < n && (why = removal(cycle, endpoints.get(first))) == null) {
            first++;
        }
        if (first == n) {
            return endpoints; // nobody removed: no copy
        }
        List<EndpointState> kept = cycle.keptList(endpoints);
        for (int i = 0; i < first; i++) {
            kept.add(endpoints.get(i));
        }
        cycle.removed(why, 1);
        for (int i = first + 1; i < n; i++) {
            EndpointState e = endpoints.get(i);
            String removal = removal(cycle, e);
            if (removal == null) {
                kept.add(e);
            } else {
                cycle.removed(removal, 1);
            }
        }
        return kept;
    }
}
