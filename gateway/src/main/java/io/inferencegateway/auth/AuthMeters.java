package io.inferencegateway.auth;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * The meters of {@code spec.auth} (docs/auth.md): requests refused because of their credentials, by one of the few
 * {@link AuthFailure.Cause}s. One for the gateway's life, so that an authenticator rebuilt by a reload counts on.
 */
public final class AuthMeters implements MeterBinder {

    private volatile MeterRegistry registry;
    private Counter[] failures; // guarded by this; registered with the first authenticator, none while auth is off

    @Override
    public void bindTo(MeterRegistry registry) {
        this.registry = registry;
    }

    /** The failure counters by {@link AuthFailure.Cause} ordinal, registered the first time they are asked for. */
    synchronized Counter[] failures() {
        if (failures == null) {
            AuthFailure.Cause[] causes = AuthFailure.Cause.values();
            Counter[] counters = new Counter[causes.length];
            for (AuthFailure.Cause kind : causes) {
                counters[kind.ordinal()] = Counter.builder("inference_gateway_auth_failures_total")
                        .description("Requests refused with 401 or 403 because of their credentials, by reason")
                        .tag("reason", kind.label()).register(registry);
            }
            failures = counters;
        }
        return failures;
    }
}
