package io.inferencegateway.lab.bench.global;

import java.util.List;
import java.util.Map;

/**
 * A {@code --policies} label of the {@code global} scenario and what it makes of the tier's scheduler: each one is
 * the same global tier gateway with a different pool section.
 *
 * @param policy  the scheduler's {@code policy}; null: the gateway's default (the global tier's profile)
 * @param weights written under {@code weights}; empty: the defaults
 * @param targets written as {@code targets}; empty: every cluster
 */
public record GlobalPolicy(String label, String policy, Map<String, Integer> weights, List<String> targets) {

    /** The tier's default profile. */
    public static final String GLOBAL = "global";
    /** Only the home region's cluster: what a client pinned to its nearest region gets. */
    public static final String NEAREST_ONLY = "nearest-only";
    /** Every cluster in turn, blind to load, distance and price. */
    public static final String ROUND_ROBIN = "round-robin";
    /**
     * The default profile blind to price: {@code cost: 0}, and {@code priority: 0}, since the priority scorer sends
     * sheddable requests to the cheapest target (it would otherwise also send critical ones to the fastest).
     */
    public static final String GLOBAL_NO_COST = "global-no-cost";

    /** What the scenario compares when no {@code --policies} names one of these. */
    public static final List<String> LABELS = List.of(GLOBAL, NEAREST_ONLY, ROUND_ROBIN, GLOBAL_NO_COST);

    public GlobalPolicy {
        weights = Map.copyOf(weights);
        targets = List.copyOf(targets);
    }

    /** The policy a label names, for a tier whose home region's cluster is {@code home}. */
    public static GlobalPolicy of(String label, String home) {
        return switch (label) {
            case GLOBAL -> new GlobalPolicy(label, null, Map.of(), List.of());
            case NEAREST_ONLY -> new GlobalPolicy(label, null, Map.of(), List.of(home));
            case ROUND_ROBIN -> new GlobalPolicy(label, "round-robin", Map.of(), List.of());
            case GLOBAL_NO_COST -> new GlobalPolicy(label, null, Map.of("cost", 0, "priority", 0), List.of());
            default -> throw new IllegalArgumentException("unknown policy '" + label + "' for the global scenario; "
                    + "known: " + String.join(", ", LABELS));
        };
    }

    /** The labels of {@code asked} this scenario knows, in order; all of {@link #LABELS} when it knows none. */
    public static List<String> among(List<String> asked) {
        List<String> known = asked.stream().filter(LABELS::contains).toList();
        return known.isEmpty() ? LABELS : known;
    }
}
