package io.inferencegateway.scheduling.framework;

import java.util.List;

/**
 * Extension point: where a request goes while no candidate has fresh metrics, so that what a plugin keeps together
 * stays together when the load signals are gone (a conversation on its pod, a prefix on its rendezvous home, alike on
 * every replica). The scheduler asks its fallbacks by precedence, lowest first; the first that answers decides, and
 * with none it takes the candidate with the fewest requests in flight.
 */
@FunctionalInterface
public interface StaleFallback {

    /** A session's pod comes first. */
    int SESSION = 0;
    /** Then a prefix's rendezvous home. */
    int PREFIX_HOME = 1;

    /** The index in {@code states} of the endpoint the request should go to, or -1 for no opinion. */
    int choose(SchedulingCycle cycle, List<EndpointState> states);
}
