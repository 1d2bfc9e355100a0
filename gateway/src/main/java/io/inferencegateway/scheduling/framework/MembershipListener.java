package io.inferencegateway.scheduling.framework;

import java.util.List;

import io.inferencegateway.domain.Endpoint;

/** Told the pool's current endpoints whenever they change, so per-endpoint state of pods that left is dropped. */
@FunctionalInterface
public interface MembershipListener {

    void endpointsChanged(List<Endpoint> current);
}
