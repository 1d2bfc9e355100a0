package io.inferencegateway.scheduling.latency;

import io.inferencegateway.domain.LatencyPrediction;
import io.inferencegateway.domain.PickDecision;
import io.inferencegateway.domain.RequestListener;
import io.inferencegateway.domain.RequestRecord;

/**
 * Teaches each request's latency prediction what was measured once the request ends: the mean time between output
 * tokens (streamed responses whose usage counted at least two output tokens) and the output tokens. Only responses
 * relayed to their end with status 200 teach: an error's or a cut stream's timing says nothing about the pod's speed.
 * The time to first token is taught as it passes (request/GatewayRequest.java, {@code firstToken}), so that a pod that
 * slowed down is seen after its first tokens rather than after its whole responses.
 */
public final class LatencyLearning implements RequestListener {

    @Override
    public void ended(RequestRecord record) {
        PickDecision decision = record.decision();
        LatencyPrediction prediction = decision == null ? null : decision.prediction();
        if (prediction == null || record.ending() != RequestRecord.Ending.COMPLETED || record.status() != 200) {
            return;
        }
        double tpot = Double.NaN;
        if (record.stream() && record.firstTokenNanos() != 0 && record.outputTokens() >= 2) {
            tpot = (record.endNanos() - record.firstTokenNanos()) / 1e6 / (record.outputTokens() - 1);
        }
        prediction.learn(Double.NaN, tpot, record.outputTokens());
    }
}
