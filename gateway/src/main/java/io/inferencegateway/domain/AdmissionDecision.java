package io.inferencegateway.domain;

import java.util.Objects;

/**
 * What the scheduler's admission says of one request, before the pool's queue has its say
 * (pool/FlowControl.java): go now, even past a queue ({@link Action#ADMIT}: the request is predicted to meet its
 * latency targets where it would go now, and waiting could only make it late); no opinion ({@link Action#PASS}: the
 * queue and saturation decide); or refuse, with the reason the client's 429 names.
 *
 * @param reason why it is refused (null unless refused)
 * @param detail what the refusal's message adds (the prediction that decided it), or null
 */
public record AdmissionDecision(Action action, GatewayError.Dropped reason, String detail) {

    /** What the admission decided. */
    public enum Action { ADMIT, PASS, REFUSE }

    public static final AdmissionDecision ADMIT = new AdmissionDecision(Action.ADMIT, null, null);
    public static final AdmissionDecision PASS = new AdmissionDecision(Action.PASS, null, null);

    public AdmissionDecision {
        Objects.requireNonNull(action, "action");
        if ((action == Action.REFUSE) != (reason != null)) {
            throw new IllegalArgumentException("a refusal, and only a refusal, has a reason");
        }
    }

    public static AdmissionDecision refuse(GatewayError.Dropped reason, String detail) {
        return new AdmissionDecision(Action.REFUSE, Objects.requireNonNull(reason, "reason"), detail);
    }

    public boolean refused() {
        return action == Action.REFUSE;
    }
}
