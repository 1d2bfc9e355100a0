package io.inferencegateway.scheduling.latency;

import io.inferencegateway.domain.LatencyPrediction;
import io.inferencegateway.domain.PickDecision;
import io.inferencegateway.domain.RequestListener;
import io.inferencegateway.domain.RequestRecord;

/**
 * Teaches each request's latency prediction what was measured once the request ends: the time from the pick to the
 * first token (streamed responses only: a plain body's first byte comes after its last token) and the mean time
 * between output tokens after it (streamed responses whose usage counted at least two output tokens). Only responses
 * relayed to their end with status 200 teach: an error's or a cut stream's timing says nothing about the pod's speed.
 */
public final class LatencyLearning implements RequestListener {

    @Override
    public void ended(RequestRecord record) {
        PickDecision decision = record.decision();
        LatencyPrediction prediction = decision == null ? null : decision.prediction();
        if (prediction == null || record.ending() != RequestRecord.Ending.COMPLETED || record.status() != 200) {
            return;
        }
        double ttft = Double.NaN;
        double tpot = Double.NaN;
        if (record.stream() && record.firstTokenNanos() != 0) {
            ttft = (record.firstTokenNanos() - prediction.madeNanos()) / 1e6;
            if (record.outputTokens() >= 2) {
                tpot = (record.endNanos() - record.firstTokenNanos()) / 1e6 / (record.outputTokens() - 1);
            }
        }
        prediction.learn(ttft, tpot, record.outputTokens());
    }
}
