package io.inferencegateway.scheduling.framework;

import io.inferencegateway.domain.GatewayError;

/**
 * A filter whose removals stand even when it keeps nobody: a rule the request must not break to be served at all (a
 * tenant's data residency), unlike a preference the framework drops when it would leave no candidate (fail open).
 * When it keeps nobody, the decision ends with its {@link #refusal}, which the client receives.
 */
public interface StrictFilter extends Filter {

    /** The error the client gets when this filter kept no candidate for the cycle's request. */
    GatewayError refusal(SchedulingCycle cycle);
}
