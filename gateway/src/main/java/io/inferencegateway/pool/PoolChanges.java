package io.inferencegateway.pool;

import java.util.ArrayList;
import java.util.List;

/** What a config reload did to the pools, by pool name. */
public record PoolChanges(List<String> added, List<String> removed, List<String> changed) {

    public PoolChanges {
        added = List.copyOf(added);
        removed = List.copyOf(removed);
        changed = List.copyOf(changed);
    }

    public static PoolChanges between(ModelPools before, ModelPools after) {
        List<String> added = new ArrayList<>();
        List<String> changed = new ArrayList<>();
        for (ModelPool pool : after.pools()) {
            ModelPool old = before.pool(pool.name());
            if (old == null) {
                added.add(pool.name());
            } else if (old != pool) {
                changed.add(pool.name());
            }
        }
        List<String> removed = new ArrayList<>();
        for (ModelPool pool : before.pools()) {
            if (after.pool(pool.name()) == null) {
                removed.add(pool.name());
            }
        }
        return new PoolChanges(added, removed, changed);
    }

    public boolean isEmpty() {
        return added.isEmpty() && removed.isEmpty() && changed.isEmpty();
    }

    @Override
    public String toString() {
        return isEmpty() ? "no pool changed"
                : "pools added " + added + ", removed " + removed + ", changed " + changed;
    }
}
