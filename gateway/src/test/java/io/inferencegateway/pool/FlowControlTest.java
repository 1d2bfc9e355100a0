package io.inferencegateway.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import io.inferencegateway.testing.ScriptedPolicy;
import org.junit.jupiter.api.Test;

import io.inferencegateway.config.FlowControlConfig;
import io.inferencegateway.config.PoolConfig;
import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.GatewayError;
import io.inferencegateway.domain.InFlightRequests;
import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.domain.AdmissionDecision;
import io.inferencegateway.domain.LatencyTargets;
import io.inferencegateway.domain.PickDecision;
import io.inferencegateway.domain.Scheduling;
import io.inferencegateway.domain.Priority;
import io.inferencegateway.domain.SchedulingPolicy;

/**
 * The pool's queue as tables: who goes first (priority, then fairness keys in turn), who is refused and why, timeouts
 * on a clock the test moves, cancellation and a reload's hand-over. The pods are two slots, one request each: a pod is
 * saturated while it has one in flight, so a finished request frees exactly one slot, as a completion does.
 */
class FlowControlTest {

    static final Endpoint A = Endpoint.parse("10.0.0.1:8000");
    static final Endpoint B = Endpoint.parse("10.0.0.2:8000");

    final AtomicLong now = new AtomicLong(1_000);
    final InFlightRequests inFlight = new InFlightRequests();
    final List<String> heard = new ArrayList<>();
    final List<Placement> placed = new ArrayList<>();

    /** What the policy predicts for the best pod's first token, in ms; null: it does not predict (yet). */
    final AtomicReference<Double> predictedTtft = new AtomicReference<>();
    /** The time each request's scheduling was told it had waited, by the request's prompt. */
    final Map<String, Long> waitedMillis = new java.util.HashMap<>();

    /**
     * Room while some pod has nothing in flight; picks the first such pod. Its admission is the latency admitter's
     * rule on the scripted best prediction (scheduling/plugins/LatencyAdmitter.java, tested there): refuse a sheddable
     * request predicted late, admit at once one above standard predicted in time.
     */
    final SchedulingPolicy oneSlotPods = new SchedulingPolicy() {
        final SchedulingPolicy scripted = ScriptedPolicy.picking((request, candidates) -> PickDecision.byPolicy(
                candidates.stream().filter(e -> inFlight.inFlight(e) == 0).findFirst().orElse(candidates.get(0)),
                candidates.size()))
                .saturatedWhen(candidates -> candidates.stream().allMatch(e -> inFlight.inFlight(e) > 0))
                .admitting((request, candidates) -> {
                    Double ttft = predictedTtft.get();
                    long target = request.targets().ttftMillis();
                    if (ttft == null || target == 0) {
                        return AdmissionDecision.PASS;
                    }
                    boolean meets = ttft <= target;
                    if (Priority.sheddable(request.priority()) && !meets) {
                        return AdmissionDecision.refuse(GatewayError.Dropped.SLO_UNATTAINABLE, "best predicted on "
                                + candidates.get(0) + ": first token in " + Math.round(ttft) + " ms, target " + target
                                + " ms");
                    }
                    return request.priority() > Priority.STANDARD && meets ? AdmissionDecision.ADMIT
                            : AdmissionDecision.PASS;
                });

        @Override
        public Scheduling begin(InferenceRequest request, List<Endpoint> candidates, long waitedNanos) {
            waitedMillis.put(request.promptText(), waitedNanos / 1_000_000);
            return scripted.begin(request, candidates, waitedNanos);
        }
    };

    ModelPool pool(FlowControlConfig flow, List<Endpoint> endpoints) {
        PoolConfig config = PoolConfig.builder("m").name("p").loraAdapters(List.of("adapter-a")).endpoints(endpoints)
                .routeTimeout(Duration.ofSeconds(30)).flowControl(flow).build();
        return new ModelPool(config, oneSlotPods, endpoints, inFlight, now::get);
    }

    static FlowControlConfig queue(int maxQueued) {
        return new FlowControlConfig(true, maxQueued, Duration.ofSeconds(10), Duration.ofSeconds(2), 0, Map.of(),
                true);
    }

    final ModelPool pool = pool(queue(100), List.of(A, B));

    static InferenceRequest request(String name) {
        return InferenceRequest.builder("m").promptText(name).promptTokensEstimate(1).stream(true).build();
    }

    /** Places the request or queues it; returns its ticket when it waits. */
    FlowControl.Ticket send(ModelPool p, String name, int priority, String key) {
        InferenceRequest request = request(name).toBuilder().priority(priority).targets(LatencyTargets.NONE)
                .fairnessKey(key).build();
        Scheduling admitted = p.flowControl().admit(request);
        if (admitted != null) {
            Placement now = Placement.place(p, request(name), admitted);
            placed.add(now);
            heard.add(name + " placed on " + now.endpoint());
            return null;
        }
        return p.flowControl().enqueue(request, new FlowControl.Waiter() {
            @Override
            public void bound(Placement placement, long pickNanos) {
                placed.add(placement);
                heard.add(name + " bound to " + placement.endpoint());
            }

            @Override
            public void refused(GatewayError error) {
                heard.add(name + " refused " + error.headers().get("x-gateway-dropped-reason"));
            }
        });
    }

    FlowControl.Ticket send(String name, int priority) {
        return send(pool, name, priority, null);
    }

    /** Fills both pods. */
    void saturate() {
        send("busy-1", Priority.STANDARD);
        send("busy-2", Priority.STANDARD);
        heard.clear();
    }

    /** The oldest request still placed finishes: one slot frees. */
    void finishOne() {
        placed.remove(0).finish();
    }

    void finishAll(int n) {
        for (int i = 0; i < n; i++) {
            finishOne();
        }
    }

    @Test
    void aPoolWithRoomPlacesAtOnceAndCountsTheRequestInFlight() {
        send("r", Priority.SHEDDABLE);

        assertThat(heard).containsExactly("r placed on " + A);
        assertThat(inFlight.inFlight(A)).isEqualTo(1);
        assertThat(pool.flowControl().queued()).isZero();
    }

    @Test
    void whenSaturatedRequestsWaitAndAreBoundHighestPriorityFirstAsSlotsFree() {
        saturate();
        send("standard-1", Priority.STANDARD);
        send("critical-1", Priority.CRITICAL);
        send("standard-2", Priority.STANDARD);
        send("critical-2", Priority.CRITICAL);
        send("five", 5);

        assertThat(heard).isEmpty();
        assertThat(pool.flowControl().queued()).isEqualTo(5);
        assertThat(pool.flowControl().queued("critical")).isEqualTo(3);
        assertThat(pool.flowControl().queued("standard")).isEqualTo(2);

        finishAll(5);

        assertThat(heard).containsExactly("five bound to " + A, "critical-1 bound to " + B,
                "critical-2 bound to " + A, "standard-1 bound to " + B, "standard-2 bound to " + A);
        assertThat(pool.flowControl().queued()).isZero();
        assertThat(inFlight.inFlight(A) + inFlight.inFlight(B)).isEqualTo(2); // bound once each, never more
    }

    @Test
    void withinOnePriorityFairnessKeysTakeTurnsAndEachKeepsItsOrder() {
        saturate();
        for (String name : List.of("a1", "a2", "a3", "a4")) {
            send(pool, name, Priority.STANDARD, "tenant-a");
        }
        send(pool, "b1", Priority.STANDARD, "tenant-b");
        send(pool, "c1", Priority.STANDARD, "tenant-c");
        send(pool, "c2", Priority.STANDARD, "tenant-c");

        finishAll(7);

        assertThat(heard).extracting(s -> s.substring(0, 2))
                .containsExactly("a1", "b1", "c1", "a2", "c2", "a3", "a4");
    }

    @Test
    void aSheddableRequestIsRefusedAtOnceWhileSaturatedWithRetryAfterAndTheReason() {
        saturate();

        assertThatThrownBy(() -> send("shed", Priority.SHEDDABLE))
                .isInstanceOfSatisfying(GatewayError.class, e -> {
                    assertThat(e.reason()).isEqualTo(GatewayError.Reason.OVERLOADED);
                    assertThat(e.headers()).containsEntry("Retry-After", "2")
                            .containsEntry("x-gateway-dropped-reason", "sheddable_saturated");
                });
        assertThat(pool.flowControl().queued()).isZero();
    }

    @Test
    void aSheddableRequestNeverWaitsBehindOthersEvenWhenAPodHasJustFreed() {
        saturate();
        send("waiting", Priority.STANDARD);
        inFlight.finished(A); // room, but the queue has not been dispatched yet

        assertThatThrownBy(() -> send("shed", Priority.SHEDDABLE)).isInstanceOf(GatewayError.class);
        assertThat(pool.flowControl().queued()).isEqualTo(1);
    }

    @Test
    void aFullQueueRefusesEqualsAndLetsAHigherPriorityDisplaceTheNewestOfTheLongestKey() {
        ModelPool small = pool(queue(3), List.of(A, B));
        send(small, "busy-1", 0, null);
        send(small, "busy-2", 0, null);
        heard.clear();
        send(small, "a1", Priority.STANDARD, "a");
        send(small, "a2", Priority.STANDARD, "a");
        send(small, "b1", Priority.STANDARD, "b");

        assertThatThrownBy(() -> send(small, "late", Priority.STANDARD, "c"))
                .isInstanceOfSatisfying(GatewayError.class, e -> assertThat(e.headers())
                        .containsEntry("x-gateway-dropped-reason", "queue_full"));

        send(small, "vip", Priority.CRITICAL, "c");
        assertThat(heard).containsExactly("a2 refused displaced");
        assertThat(small.flowControl().queued()).isEqualTo(3);

        finishAll(3);
        assertThat(heard).containsExactly("a2 refused displaced", "vip bound to " + A, "a1 bound to " + B,
                "b1 bound to " + A);
    }

    @Test
    void aRequestThatWaitedPastTheTimeoutIsRefusedOnTheTickAndLaterOnesKeepWaiting() {
        saturate();
        send("old", Priority.CRITICAL);
        now.addAndGet(Duration.ofSeconds(6).toNanos());
        send("young", Priority.STANDARD);

        now.addAndGet(Duration.ofSeconds(4).toNanos()); // old: 10 s, the timeout
        pool.flowControl().tick();

        assertThat(heard).containsExactly("old refused queue_timeout");
        assertThat(pool.flowControl().queued()).isEqualTo(1);
        finishOne();
        assertThat(heard).containsExactly("old refused queue_timeout", "young bound to " + A);
    }

    @Test
    void aCancelledRequestLeavesTheQueueAndIsNeverBound() {
        saturate();
        FlowControl.Ticket gone = send("gone", Priority.CRITICAL);
        send("stays", Priority.STANDARD);

        assertThat(gone.cancel()).isTrue();
        assertThat(gone.cancel()).isFalse();
        assertThat(pool.flowControl().queued()).isEqualTo(1);

        finishAll(2);
        assertThat(heard).containsExactly("stays bound to " + A);
    }

    @Test
    void theTickBindsWhenReadingsShowRoomWithoutAnyRequestEnding() {
        saturate();
        send("waiting", Priority.STANDARD);
        inFlight.finished(A); // room that a scrape, not a completion, reveals

        pool.flowControl().tick();

        assertThat(heard).containsExactly("waiting bound to " + A);
    }

    @Test
    void aReloadHandsTheQueueToThePoolThatReplacesItOrRefusesItWhenThePoolIsGone() {
        saturate();
        send("moved-1", Priority.STANDARD);
        send("moved-2", Priority.CRITICAL);
        ModelPool next = pool(queue(100), List.of(B)); // B is busy: they keep waiting there

        pool.flowControl().handOver(next.flowControl());

        assertThat(pool.flowControl().queued()).isZero();
        assertThat(next.flowControl().queued()).isEqualTo(2);
        assertThat(heard).isEmpty();
        placed.remove(1).finish(); // busy-2 on B ends; the old pool's request tells the old pool,
        next.flowControl().tick(); // and the new pool's scrape tick sees the room
        assertThat(heard).containsExactly("moved-2 bound to " + B);

        next.flowControl().handOver(null);
        assertThat(heard).containsExactly("moved-2 bound to " + B, "moved-1 refused null");
    }

    @Test
    void withFlowControlOffASaturatedPoolStillPlacesAtOnceButShedsWhatIsSheddable() {
        ModelPool off = pool(new FlowControlConfig(false, 100, Duration.ofSeconds(10), Duration.ofSeconds(1), 0,
                Map.of(), true), List.of(A));
        send(off, "one", Priority.STANDARD, null);
        send(off, "two", Priority.CRITICAL, null);
        assertThatThrownBy(() -> send(off, "three", Priority.SHEDDABLE, null))
                .isInstanceOfSatisfying(GatewayError.class, e -> assertThat(e.headers())
                        .containsEntry("x-gateway-dropped-reason", "sheddable_saturated"));

        assertThat(heard).containsExactly("one placed on " + A, "two placed on " + A);
    }

    // ---- requests with latency targets: decided by the best pod's prediction --------------------------------

    static final LatencyTargets CHAT = new LatencyTargets(500, 0);

    FlowControl.Ticket send(String name, int priority, LatencyTargets targets) {
        InferenceRequest request = request(name).toBuilder().priority(priority).targets(targets).build();
        Scheduling admitted = pool.flowControl().admit(request);
        if (admitted != null) {
            placed.add(Placement.place(pool, request, admitted));
            heard.add(name + " placed");
            return null;
        }
        return pool.flowControl().enqueue(request, new FlowControl.Waiter() {
            @Override
            public void bound(Placement placement, long pickNanos) {
                placed.add(placement);
                long left = Math.max(1, placement.request().targets().ttftMillis() - waitedMillis.get(name));
                heard.add(name + " bound with " + left + " ms left");
            }

            @Override
            public void refused(GatewayError error) {
                heard.add(name + " refused " + error.headers().get("x-gateway-dropped-reason"));
            }
        });
    }

    @Test
    void aSheddableRequestNoPodCanServeInTimeIsRefusedWithThePredictionEvenWithRoom() {
        predictedTtft.set(800.0);

        assertThatThrownBy(() -> send("batch", Priority.SHEDDABLE, CHAT))
                .isInstanceOfSatisfying(GatewayError.class, e -> {
                    assertThat(e.headers()).containsEntry("x-gateway-dropped-reason", "slo_unattainable");
                    assertThat(e.getMessage()).contains("first token in 800 ms, target 500 ms");
                });
        assertThat(placed).as("refused although the pool has room: it would be late").isEmpty();
    }

    @Test
    void aSheddableRequestInTimeIsStillShedWhileThePoolIsFull() {
        saturate();
        predictedTtft.set(300.0);

        assertThatThrownBy(() -> send("batch", Priority.SHEDDABLE, CHAT)).isInstanceOfSatisfying(GatewayError.class,
                e -> assertThat(e.headers()).containsEntry("x-gateway-dropped-reason", "sheddable_saturated"));
    }

    @Test
    void aCriticalRequestAPodCanServeInTimeGoesAtOnceEvenWhenThePodsLookFull() {
        saturate();
        send("waits", Priority.STANDARD, CHAT);
        predictedTtft.set(300.0);

        send("chat", Priority.CRITICAL, CHAT);

        assertThat(heard).as("the prediction, not the saturation guess, decides").containsExactly("chat placed");
    }

    @Test
    void aCriticalRequestNoPodCanServeInTimeWaitsAndIsServedLateRatherThanRefused() {
        saturate();
        predictedTtft.set(800.0);
        send("chat", Priority.CRITICAL, CHAT);
        assertThat(pool.flowControl().queued("critical")).isEqualTo(1);

        now.addAndGet(Duration.ofMillis(600).toNanos()); // past its target
        pool.flowControl().tick();
        assertThat(heard).as("not refused").isEmpty();
        finishOne();
        assertThat(heard).containsExactly("chat bound with 1 ms left");
    }

    @Test
    void aStandardRequestWaitsWhileItsTargetHoldsAndLeavesWithWhatIsLeft() {
        saturate();
        predictedTtft.set(300.0); // in time, but standard: it waits its turn behind the full pods
        send("early", Priority.STANDARD, new LatencyTargets(700, 0));
        send("late", Priority.STANDARD, CHAT);

        now.addAndGet(Duration.ofMillis(600).toNanos());
        pool.flowControl().tick();
        assertThat(heard).containsExactly("late refused slo_deadline");

        finishOne();
        assertThat(heard).containsExactly("late refused slo_deadline", "early bound with 100 ms left");
    }

    @Test
    void withoutAPredictionTargetsChangeNothing() {
        saturate();
        send("waits", Priority.STANDARD, CHAT);

        assertThatThrownBy(() -> send("shed", Priority.SHEDDABLE, CHAT)).isInstanceOfSatisfying(GatewayError.class,
                e -> assertThat(e.headers()).containsEntry("x-gateway-dropped-reason", "sheddable_saturated"));
        assertThat(pool.flowControl().queued()).isEqualTo(1);
    }

    @Test
    void aPoolWithoutEndpointsStaysA503() {
        ModelPool empty = pool(queue(100), List.of());

        assertThatThrownBy(() -> send(empty, "r", Priority.CRITICAL, null))
                .isInstanceOfSatisfying(GatewayError.class,
                        e -> assertThat(e.reason()).isEqualTo(GatewayError.Reason.NO_ENDPOINT));
    }

    @Test
    void priorityNamesAndIntegersParseAndBandsStayThree() {
        assertThat(Priority.parse("Critical")).isEqualTo(1);
        assertThat(Priority.parse(" standard ")).isZero();
        assertThat(Priority.parse("sheddable")).isEqualTo(-1);
        assertThat(Priority.parse("-7")).isEqualTo(-7);
        assertThat(Priority.parse("1001")).isNull();
        assertThat(Priority.parse("urgent")).isNull();
        assertThat(List.of(Priority.band(42), Priority.band(0), Priority.band(-3)))
                .containsExactly("critical", "standard", "sheddable");
    }
}
