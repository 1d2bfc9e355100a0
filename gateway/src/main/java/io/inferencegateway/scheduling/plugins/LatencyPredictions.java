package io.inferencegateway.scheduling.plugins;

import java.util.List;
import java.util.Objects;

import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.domain.LatencyPrediction;
import io.inferencegateway.domain.LatencyTargets;
import io.inferencegateway.scheduling.framework.DataProducer;
import io.inferencegateway.scheduling.framework.EndpointState;
import io.inferencegateway.scheduling.framework.PluginContext;
import io.inferencegateway.scheduling.framework.SchedulingCycle;
import io.inferencegateway.scheduling.latency.LatencyPredictor;

/**
 * The latency predictor as a producer: for a request with latency targets, once the pool's predictor has learned
 * enough, the time to first token and per output token predicted on every candidate with fresh metrics, and how far
 * each falls short of the targets ({@link EndpointState#latencyRatio}), counting the prompt tokens the candidate
 * probably caches. What the latency filter, scorer and admitter read; registered by them (once per pool), so a profile
 * without them predicts nothing (docs/slo.md).
 */
final class LatencyPredictions implements DataProducer {

    private final LatencyPredictor predictor;

    private LatencyPredictions(LatencyPredictor predictor) {
        this.predictor = predictor;
    }

    /** Registers the pool's predictions (once, however many latency plugins ask) and its latency admitter. */
    static void register(PluginContext pool) {
        pool.producer(DataProducer.PREDICTIONS, new LatencyPredictions(pool.predictor()));
        pool.admitter(LatencyAdmitter.INSTANCE);
    }

    @Override
    public void produce(SchedulingCycle cycle) {
        LatencyTargets targets = cycle.targets();
        if (targets.any() && predictor.ready()) {
            predictAll(predictor, cycle, targets);
        }
    }

    /** Predicts every candidate of {@code cycle} with fresh metrics, against {@code targets}. */
    static void predictAll(LatencyPredictor predictor, SchedulingCycle cycle, LatencyTargets targets) {
        InferenceRequest request = cycle.request();
        int outputTokens = predictor.outputTokens(request);
        double[] x = cycle.doubleScratch(LatencyPredictor.FEATURES);
        List<EndpointState> states = cycle.states();
        for (int i = 0; i < states.size(); i++) {
            EndpointState s = states.get(i);
            if (s.fresh()) {
                LatencyLearner.features(s, request, x);
                double ttft = predictor.ttftMillis(s.endpoint(), x);
                double tpot = predictor.tpotMillis(s.endpoint(), x);
                s.predicted(ttft, tpot, LatencyPrediction.ratio(ttft, tpot, outputTokens, request.stream(), targets));
            }
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LatencyPredictions p && p.predictor == predictor;
    }

    @Override
    public int hashCode() {
        return Objects.hashCode(predictor);
    }

    @Override
    public String toString() {
        return "latency-predictions";
    }
}
