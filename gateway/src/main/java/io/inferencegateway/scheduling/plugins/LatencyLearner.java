package io.inferencegateway.scheduling.plugins;

import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.domain.LatencyPrediction;
import io.inferencegateway.domain.PickDecision;
import io.inferencegateway.domain.RequestRecord;
import io.inferencegateway.scheduling.framework.DataProducer;
import io.inferencegateway.scheduling.framework.EndpointState;
import io.inferencegateway.scheduling.framework.LifecyclePlugin;
import io.inferencegateway.scheduling.framework.SchedulingCycle;
import io.inferencegateway.scheduling.latency.LatencyPredictor;

/**
 * How a pool's latency predictor learns: a producer that attaches to the chosen endpoint the latency predicted there
 * (made whether or not the predictor is ready yet, since that is how it gets ready; the decision carries it), and a
 * lifecycle plugin that teaches the predictor what was measured. The time to first token as it passes (a streamed
 * 200), so that a pod that slowed down is seen after its first tokens rather than after its whole responses; at the
 * end, the mean time between output tokens (a stream whose usage counted at least two) and the output tokens; for a
 * plain body, whose first token comes with its last, the time from the pick to its end and its output tokens, which
 * the predictor splits between the two ({@link LatencyPredictor#learnWhole}). Only responses relayed to their end with
 * status 200 teach at the end: an error's or a cut stream's timing says nothing of the pod's speed. Registered for
 * every pool its policy schedules with plugins.
 */
public final class LatencyLearner implements DataProducer, LifecyclePlugin {

    private final LatencyPredictor predictor;

    public LatencyLearner(LatencyPredictor predictor) {
        this.predictor = predictor;
    }

    /** Predicts nothing for the candidates ({@link LatencyPredictions} does, where it is asked to). */
    @Override
    public void produce(SchedulingCycle cycle) {
    }

    @Override
    public void produceChosen(SchedulingCycle cycle, EndpointState chosen) {
        double[] x = new double[LatencyPredictor.FEATURES]; // kept by the prediction, to learn from
        features(chosen, cycle.request(), x);
        chosen.prediction(predictor.prediction(chosen.endpoint(), x, cycle.request(), cycle.nowNanos()));
    }

    @Override
    public void firstToken(RequestRecord record) {
        LatencyPrediction prediction = prediction(record);
        if (prediction != null && record.stream() && record.status() == 200) {
            prediction.learnFirstToken(record.firstTokenNanos());
        }
    }

    @Override
    public void ended(RequestRecord record) {
        LatencyPrediction prediction = prediction(record);
        if (prediction == null || record.ending() != RequestRecord.Ending.COMPLETED || record.status() != 200) {
            return;
        }
        if (!record.stream()) {
            prediction.learnWhole(record.endNanos(), record.outputTokens());
            return;
        }
        double tpot = Double.NaN;
        if (record.firstTokenNanos() != 0 && record.outputTokens() >= 2) {
            tpot = (record.endNanos() - record.firstTokenNanos()) / 1e6 / (record.outputTokens() - 1);
        }
        prediction.learn(Double.NaN, tpot, record.outputTokens());
    }

    /** The predictor's features of {@code request} on the candidate of {@code s}, into {@code x}. */
    public static void features(EndpointState s, InferenceRequest request, double[] x) {
        String adapter = request.adapter();
        LatencyPredictor.features(x, s.waiting(), s.running(), s.kvUsage(),
                request.promptTokensEstimate() - s.cachedTokens(),
                adapter != null && !s.runningAdapters().contains(adapter));
    }

    private static LatencyPrediction prediction(RequestRecord record) {
        PickDecision decision = record.decision();
        return decision == null ? null : decision.prediction();
    }

    @Override
    public String toString() {
        return "latency-learner";
    }
}
