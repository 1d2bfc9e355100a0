package io.inferencegateway.scheduling.framework;

import java.util.Objects;

/**
 * A number a producer attaches to every candidate of a request, for a plugin of its pool to read: a fact the framework
 * does not know of. Registered by name with the pool ({@link PluginContext#fact}), which gives each one a slot in every
 * candidate's state ({@link EndpointState#fact}); NaN until a producer sets it for the request.
 */
public final class Fact {

    private final String name;
    private final int slot;

    Fact(String name, int slot) {
        this.name = Objects.requireNonNull(name);
        this.slot = slot;
    }

    int slot() {
        return slot;
    }

    public String name() {
        return name;
    }

    @Override
    public String toString() {
        return name;
    }
}
