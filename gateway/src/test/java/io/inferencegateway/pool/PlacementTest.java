package io.inferencegateway.pool;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.inferencegateway.testing.ScriptedPolicy;
import io.inferencegateway.config.PoolConfig;
import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.InFlightRequests;
import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.domain.NanoClock;
import io.inferencegateway.domain.PendingPick;
import io.inferencegateway.domain.PickDecision;
import io.inferencegateway.domain.SchedulingPolicy;

/**
 * A placement commits every decision it made exactly once, whatever becomes of the request: when the caller says the
 * request is on its way, else when it finishes, and the failed endpoint's decision before a failover asks again.
 */
class PlacementTest {

    static final Endpoint A = Endpoint.parse("10.0.0.1:8000");
    static final Endpoint B = Endpoint.parse("10.0.0.2:8000");

    final InFlightRequests inFlight = new InFlightRequests();
    final List<String> events = new ArrayList<>();

    /** Picks the first candidate; says when it decides and when each decision is committed. */
    final SchedulingPolicy policy = ScriptedPolicy.picking((request, candidates) -> {
            PickDecision d = PickDecision.byPolicy(candidates.get(0), candidates.size());
            events.add("decided " + d.endpoint());
            return new PendingPick() {
                @Override
                public PickDecision decision() {
                    return d;
                }

                @Override
                public void commit() {
                    events.add("committed " + d.endpoint() + ", in flight " + inFlight.inFlight(d.endpoint()));
                }
            };
        });

    final ModelPool pool = new ModelPool(PoolConfig.builder("m").name("p").endpoints(List.of(A, B))
            .routeTimeout(Duration.ofSeconds(30)).build(), policy, List.of(A, B), inFlight, NanoClock.SYSTEM);

    Placement placement() {
        return Placement.choose(pool,
                InferenceRequest.builder("m").promptText("prompt").promptTokensEstimate(1).build());
    }

    @Test
    void theDecisionIsCountedInFlightAtOnceAndCommittedWhenTheCallerSays() {
        Placement p = placement();
        assertThat(events).containsExactly("decided 10.0.0.1:8000");
        assertThat(inFlight.inFlight(A)).isOne();
        p.commit();
        p.commit();
        p.finish();
        assertThat(events).containsExactly("decided 10.0.0.1:8000", "committed 10.0.0.1:8000, in flight 1");
    }

    @Test
    void aRequestThatEndsBeforeItWasSentIsCommittedWhenItFinishes() {
        Placement p = placement();
        p.finish();
        p.commit();
        assertThat(events).containsExactly("decided 10.0.0.1:8000", "committed 10.0.0.1:8000, in flight 1");
        assertThat(inFlight.inFlight(A)).isZero();
    }

    @Test
    void aFailoverCommitsTheFailedPodsDecisionBeforeDecidingAgain() {
        Placement p = placement();
        p.commit();
        assertThat(p.failover()).isEqualTo(B);
        p.finish();
        // the failed pod's count ends before the next decision, as it did before commits were deferred
        assertThat(events).containsExactly("decided 10.0.0.1:8000", "committed 10.0.0.1:8000, in flight 1",
                "decided 10.0.0.2:8000", "committed 10.0.0.2:8000, in flight 1");
        assertThat(p.attempts()).isEqualTo(2);
    }

    @Test
    void aFailoverPassesOverAPodWhoseLastRequestFailedWhileAnotherServed() {
        Endpoint c = Endpoint.parse("10.0.0.3:8000");
        ModelPool three = new ModelPool(PoolConfig.builder("m").name("p").endpoints(List.of(A, B, c))
                .routeTimeout(Duration.ofSeconds(30)).build(), policy, List.of(A, B, c), inFlight, NanoClock.SYSTEM);
        three.outliers().success(B);
        three.outliers().failure(B); // B answered another request 503 a moment ago; the policy would pick it first
        Placement p = Placement.choose(three,
                InferenceRequest.builder("m").promptText("prompt").promptTokensEstimate(1).build());
        assertThat(p.failover()).isEqualTo(c);
        three.outliers().failure(c);
        assertThat(p.failover()).as("one whose last request failed is still tried when no other is left").isEqualTo(B);
        three.outliers().success(B);
        assertThat(three.outliers().lastRequestServed(List.of(A, B, c))).as("a success clears it").containsExactly(A, B);
    }

    @Test
    void aFailoverBeforeTheCommitStillCommitsBothDecisionsOnce() {
        Placement p = placement();
        p.failover();
        p.commit();
        p.finish();
        assertThat(events).containsExactly("decided 10.0.0.1:8000", "committed 10.0.0.1:8000, in flight 1",
                "decided 10.0.0.2:8000", "committed 10.0.0.2:8000, in flight 1");
    }
}
