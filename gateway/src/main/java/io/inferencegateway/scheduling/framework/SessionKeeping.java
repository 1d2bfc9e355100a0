package io.inferencegateway.scheduling.framework;

import java.time.Duration;
import java.util.List;

import io.inferencegateway.scheduling.session.SessionTable;

/**
 * A scorer that keeps a request's session (a conversation, {@code InferenceRequest.session()}) on one pod
 * (docs/sessions.md). The profile builder gives it the pool's table bounds; the policy's fallback asks it where a
 * session goes while metrics are stale, and the meters read its table.
 */
public interface SessionKeeping {

    /** The same plugin with a table of at most {@code maxSessions} sessions forgotten after {@code idleTimeout}. */
    Scorer remembering(int maxSessions, Duration idleTimeout);

    /**
     * Without fresh metrics: the index in {@code states} of the pod the request's session is on, or of its rendezvous
     * pod when that one is not among them; -1 when the request has no session.
     */
    int sessionPod(SchedulingCycle cycle, List<EndpointState> states);

    /** Where it remembers the sessions. */
    SessionTable sessions();
}
