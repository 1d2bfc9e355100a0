package io.inferencegateway.scheduling.prefix;

import io.inferencegateway.domain.Endpoint;

/**
 * Connects one pool's prefix index to the same pool's index in the other gateway replicas
 * ({@code replicas.placement: shared}; the Redis implementation is {@link RedisPrefixSharing}).
 */
@FunctionalInterface
public interface PrefixSharing {

    /** Each replica alone. */
    PrefixSharing NONE = receiver -> null;

    /**
     * Starts hearing the other replicas' decisions for this pool; a reload's new index joins under the same pool and
     * replaces the old one.
     *
     * @return what this replica tells its own decisions through, null for {@link #NONE}
     */
    Feed join(Receiver receiver);

    /** What the other replicas decided, told on the sharing's own I/O thread. */
    @FunctionalInterface
    interface Receiver {
        /** Another replica sent a prompt with these leading block hashes to {@code endpoint}. */
        void routed(long[] hashes, int count, Endpoint endpoint, int cacheBlocks);
    }

    /** This replica's side. */
    interface Feed {
        /** Tells the other replicas of a decision; never blocks, and drops it while the others cannot be reached. */
        void publish(long[] hashes, int count, Endpoint endpoint, int cacheBlocks);

        /** Whether decisions flow both ways right now. */
        boolean live();

        /**
         * The pool's decisions, every replica's, per decision of this replica over the last few seconds: how many
         * times this replica's traffic the pods receive (about the number of active replicas behind a balancer that
         * spreads evenly). NaN while unknown: not live, or too few decisions of this replica to tell.
         */
        default double trafficFactor() {
            return Double.NaN;
        }
    }
}
