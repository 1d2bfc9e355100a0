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
 * lifecycle plugin that teaches the predictor what was measured once the response ends: a stream's time to first token
 * (a 200 that got one, cut or not) and, relayed whole, its mean time between output tokens (when its usage counted at
 * least two) and its output tokens; for a plain body relayed whole, whose first token comes with its last, the time
 * from the pick to its end and its output tokens, which the predictor splits between the two
 * ({@link LatencyPredictor#learnWhole}). It learns at the end, not as the first token passes, because the usage the
 * engine reports then says how many prompt tokens it really found cached: learnt against the gateway's guess instead,
 * a pod whose cache the guess underrates looks fast, draws more conversations and looks faster still. An error's
 * timing says nothing of the pod's speed. Registered for every pool its policy schedules with plugins.
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
        InferenceRequest request = cycle.request();
        int cached = Math.max(chosen.cachedTokens(), cycle.expectedCachedTokens());
        features(chosen, request, request.promptTokensEstimate() - cached, x);
        chosen.prediction(predictor.prediction(chosen.endpoint(), x, cycle.request(), cycle.nowNanos()));
    }

    @Override
    public void ended(RequestRecord record) {
        LatencyPrediction prediction = prediction(record);
        if (prediction == null || record.status() != 200) {
            return;
        }
        if (record.inputTokens() > 0 && record.cachedTokens() >= 0) { // what the pod computed, not what we guessed
            LatencyPredictor.uncachedTokens(prediction.features(), record.inputTokens() - record.cachedTokens());
        }
        boolean whole = record.ending() == RequestRecord.Ending.COMPLETED;
        if (!record.stream()) {
            if (whole) {
                prediction.learnWhole(record.endNanos(), record.outputTokens());
            }
            return;
        }
        if (record.firstTokenNanos() == 0) {
            return;
        }
        double ttft = (record.firstTokenNanos() - prediction.madeNanos()) / 1e6;
        double tpot = Double.NaN;
        if (whole && record.outputTokens() >= 2) {
            tpot = (record.endNanos() - record.firstTokenNanos()) / 1e6 / (record.outputTokens() - 1);
        }
        prediction.learn(ttft, tpot, whole ? record.outputTokens() : -1);
    }

    /** The predictor's features of {@code request} on the candidate of {@code s}, into {@code x}. */
    public static void features(EndpointState s, InferenceRequest request, double[] x) {
        features(s, request, request.promptTokensEstimate() - s.cachedTokens(), x);
    }

    /** As above, with the prompt tokens the candidate must compute given. */
    public static void features(EndpointState s, InferenceRequest request, int uncachedTokens, double[] x) {
        String adapter = request.adapter();
        LatencyPredictor.features(x, s.waiting(), s.running(), s.kvUsage(), uncachedTokens, s.prefillingTokens(),
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
