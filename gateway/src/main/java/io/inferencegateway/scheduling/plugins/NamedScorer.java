package io.inferencegateway.scheduling.plugins;

import io.inferencegateway.domain.PickReason;
import io.inferencegateway.scheduling.framework.Scorer;

/**
 * What the built-in scorers share: the type a config names them by (what a profile prints) and what it means when one
 * decides a pick.
 */
abstract class NamedScorer implements Scorer {

    private final String type;
    private final PickReason reason;

    NamedScorer(String type, PickReason reason) {
        this.type = type;
        this.reason = reason;
    }

    @Override
    public final PickReason reason() {
        return reason;
    }

    @Override
    public String toString() {
        return type;
    }
}
