package io.inferencegateway.scheduling.framework;

import io.inferencegateway.domain.AdmissionDecision;

/**
 * Extension point: says whether a request may be served now, on the candidates' snapshot and the facts the producers
 * attached, before the pool's queue has its say (pool/FlowControl.java): {@link AdmissionDecision#ADMIT} (go now, even past a
 * queue), {@link AdmissionDecision#PASS} (no opinion), or a refusal. The first admitter that does not pass decides.
 */
@FunctionalInterface
public interface Admitter {

    AdmissionDecision admit(SchedulingCycle cycle);
}
