package io.inferencegateway.lab.bench.report;

import java.util.List;

import io.inferencegateway.lab.bench.load.RequestResult;

/**
 * How a run's requests with latency targets fared: per class, and over all of them. Empty (no classes) when no
 * request carried targets.
 *
 * @param arrivalSeconds the simulated span goodput is counted over (see {@link SloSummary#of})
 * @param goodput        requests of every class that met their targets, per simulated second
 */
public record SloAttainment(List<SloSummary> classes, int requests, int met, double goodput, double arrivalSeconds) {

    public SloAttainment {
        classes = List.copyOf(classes);
    }

    public static SloAttainment of(List<RequestResult> results, double arrivalSeconds) {
        List<SloSummary> classes = SloSummary.of(results, arrivalSeconds);
        int requests = classes.stream().mapToInt(SloSummary::requests).sum();
        int met = classes.stream().mapToInt(SloSummary::met).sum();
        return new SloAttainment(classes, requests, met, SloSummary.perSecond(met, arrivalSeconds), arrivalSeconds);
    }

    public boolean isEmpty() {
        return classes.isEmpty();
    }

    /** Share of all requests with targets that met them; NaN when there were none. */
    public double attainment() {
        return requests == 0 ? Double.NaN : (double) met / requests;
    }
}
