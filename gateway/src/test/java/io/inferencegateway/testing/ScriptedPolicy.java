package io.inferencegateway.testing;

import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Predicate;

import io.inferencegateway.domain.AdmissionDecision;
import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.domain.PendingPick;
import io.inferencegateway.domain.PickDecision;
import io.inferencegateway.domain.Scheduling;
import io.inferencegateway.domain.SchedulingPolicy;

/**
 * A policy whose every answer a test scripts: which endpoint it picks, when the pool counts as saturated, what its
 * admission says. For the tests of what sits around a policy (the pool's queue, placements, the request's ending).
 */
public final class ScriptedPolicy implements SchedulingPolicy {

    /** Picks one of the candidates (a {@link PickDecision} is a pick with nothing to commit). */
    @FunctionalInterface
    public interface Rule {
        PendingPick choose(InferenceRequest request, List<Endpoint> candidates);
    }

    private final Rule rule;
    private Predicate<List<Endpoint>> saturated = candidates -> false;
    private BiFunction<InferenceRequest, List<Endpoint>, AdmissionDecision> admission = (request, candidates) -> AdmissionDecision.PASS;
    private int begun;

    private ScriptedPolicy(Rule rule) {
        this.rule = rule;
    }

    public static ScriptedPolicy picking(Rule rule) {
        return new ScriptedPolicy(rule);
    }

    /** The first candidate, always. */
    public static ScriptedPolicy first() {
        return picking((request, candidates) -> PickDecision.byPolicy(candidates.get(0), candidates.size()));
    }

    public ScriptedPolicy saturatedWhen(Predicate<List<Endpoint>> full) {
        this.saturated = full;
        return this;
    }

    public ScriptedPolicy admitting(BiFunction<InferenceRequest, List<Endpoint>, AdmissionDecision> says) {
        this.admission = says;
        return this;
    }

    /** How many schedulings were begun. */
    public int begun() {
        return begun;
    }

    @Override
    public Scheduling begin(InferenceRequest request, List<Endpoint> candidates, long waitedNanos) {
        begun++;
        return new Scheduling() {
            @Override
            public boolean saturated() {
                return saturated.test(candidates);
            }

            @Override
            public double saturatedFraction() {
                return Double.NaN;
            }

            @Override
            public AdmissionDecision admission() {
                return admission.apply(request, candidates);
            }

            @Override
            public PendingPick pick() {
                return rule.choose(request, candidates);
            }

            @Override
            public void close() {
            }
        };
    }
}
