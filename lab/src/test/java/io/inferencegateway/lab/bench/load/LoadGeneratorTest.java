package io.inferencegateway.lab.bench.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.inferencegateway.lab.bench.stub.ServedRequest;
import io.inferencegateway.lab.bench.stub.StubBehaviour;
import io.inferencegateway.lab.bench.stub.StubModelServer;
import io.inferencegateway.lab.bench.workload.ChatMessage;
import io.inferencegateway.lab.bench.workload.IntRange;
import io.inferencegateway.lab.bench.workload.PlannedRequest;
import io.inferencegateway.lab.bench.workload.PoissonArrivals;
import io.inferencegateway.lab.bench.workload.RequestPlan;
import io.inferencegateway.lab.bench.workload.RequestSpec;
import io.inferencegateway.lab.bench.workload.UniquePromptWorkload;
import io.netty.channel.nio.NioEventLoopGroup;

/**
 * The generator's numbers against a stub server whose schedule is known. Timing checks compare the
 * client's measurement with what the server actually did in the same JVM (same clock): a measured
 * TTFT can never be below the server's own delay, and its median excess is loopback latency.
 */
class LoadGeneratorTest {

    private static final long MS = 1_000_000L;
    private static NioEventLoopGroup serverGroup;
    private static LoadGenerator generator;

    @BeforeAll
    static void start() throws Exception {
        serverGroup = new NioEventLoopGroup(1);
        generator = new LoadGenerator();
        // load classes and warm the JIT first, so no test measures a cold start
        try (StubModelServer stub = new StubModelServer(serverGroup, 0,
                StubBehaviour.fixed(Duration.ofMillis(1), Duration.ofMillis(1)), false)) {
            generator.run(poissonPlan("m", 200, 400, 4, 9), List.of(stub.address()), LoadOptions.defaults(1.0),
                    new LiveCounters());
        }
    }

    @AfterAll
    static void stop() {
        generator.close();
        serverGroup.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
    }

    @Test
    void ttftAndItlMatchTheServerSchedule() throws Exception {
        StubBehaviour behaviour = StubBehaviour.fixed(Duration.ofMillis(50), Duration.ofMillis(10));
        try (StubModelServer stub = new StubModelServer(serverGroup, 0, behaviour, true)) {
            RequestPlan plan = poissonPlan("m", 40, 20, 8, 1);
            RunRecording run = generator.run(plan, List.of(stub.address()), LoadOptions.defaults(1.0), new LiveCounters());

            assertThat(run.results()).hasSize(40).allSatisfy(r -> {
                assertThat(r.outcome()).isEqualTo(Outcome.OK);
                assertThat(r.status()).isEqualTo(200);
                assertThat(r.outputTokens()).isEqualTo(8);
                assertThat(r.usageReported()).isTrue();
                assertThat(r.contentEvents()).isEqualTo(8);
                assertThat(r.itlNanos()).hasSize(7);
                // causality: the role-only chunk came at once, yet TTFT waits for the first content
                assertThat(r.ttftNanos()).isGreaterThanOrEqualTo(50 * MS);
                assertThat(r.e2eNanos()).isGreaterThanOrEqualTo(r.ttftNanos() + Arrays.stream(r.itlNanos()).sum());
            });

            Map<String, ServedRequest> served = byId(stub.served());
            List<Long> ttftExcess = new ArrayList<>();
            List<Long> clientGaps = new ArrayList<>();
            List<Long> serverGaps = new ArrayList<>();
            for (RequestResult r : run.results()) {
                ServedRequest s = served.get("bench-" + r.index());
                long serverDelay = s.eventNanos()[0] - s.receivedNanos();
                long excess = r.ttftNanos() - r.sendLagNanos() - serverDelay;
                assertThat(excess).as("request %d: TTFT below what the server did", r.index()).isGreaterThanOrEqualTo(0);
                ttftExcess.add(excess);
                for (int i = 0; i < r.itlNanos().length; i++) {
                    clientGaps.add(r.itlNanos()[i]);
                    serverGaps.add(s.eventNanos()[i + 1] - s.eventNanos()[i]);
                }
            }
            // typically 0.2 ms; the bound is generous so that a busy machine cannot fail it
            assertThat(median(ttftExcess)).as("median TTFT measurement excess").isLessThan(50 * MS);
            assertThat(Math.abs(median(clientGaps) - median(serverGaps))).as("ITL median vs server").isLessThan(5 * MS);
        }
    }

    @Test
    void timeScaleMultipliesLatenciesAndDividesGaps() throws Exception {
        // at scale 10: 50 ms simulated to the first token is 5 ms of wall time, 200 ms between tokens is 20 ms
        StubBehaviour behaviour = StubBehaviour.fixed(Duration.ofMillis(50), Duration.ofMillis(200)).withTimeScale(10);
        try (StubModelServer stub = new StubModelServer(serverGroup, 0, behaviour, true)) {
            RequestPlan plan = poissonPlan("m", 40, 10, 5, 2); // about 4 s of simulated arrivals
            RunRecording run = generator.run(plan, List.of(stub.address()), LoadOptions.defaults(10), new LiveCounters());

            Map<String, ServedRequest> served = byId(stub.served());
            long clientStreaming = 0;
            long serverStreamingSimulated = 0;
            for (RequestResult r : run.results()) {
                assertThat(r.outcome()).isEqualTo(Outcome.OK);
                // causal bounds, true however busy the machine is
                assertThat(r.ttftNanos()).as("simulated TTFT").isGreaterThanOrEqualTo(50 * MS);
                ServedRequest s = served.get("bench-" + r.index());
                long serverDelaySimulated = (s.eventNanos()[0] - s.receivedNanos()) * 10;
                assertThat(r.ttftNanos() - r.sendLagNanos() - serverDelaySimulated).isGreaterThanOrEqualTo(-10);
                clientStreaming += Arrays.stream(r.itlNanos()).sum();
                serverStreamingSimulated += (s.eventNanos()[4] - s.eventNanos()[0]) * 10;
            }
            // a wrong scale would be off by a factor of ten; delivery jitter cannot come near that
            assertThat((double) clientStreaming / serverStreamingSimulated).isBetween(0.25, 4.0);
            // sends are paced in wall time: the planned 4 s of arrivals take 0.4 s, not 4 s
            long firstReceived = served.values().stream().mapToLong(ServedRequest::receivedNanos).min().orElseThrow();
            long lastReceived = served.values().stream().mapToLong(ServedRequest::receivedNanos).max().orElseThrow();
            long plannedSpan = plan.requests().get(plan.size() - 1).offsetNanos() - plan.requests().get(0).offsetNanos();
            assertThat(plannedSpan).isGreaterThan(2_000 * MS);
            assertThat(lastReceived - firstReceived).isLessThan(plannedSpan / 2);
        }
    }

    @Test
    void errorsAreClassified() throws Exception {
        StubBehaviour behaviour = StubBehaviour.fixed(Duration.ofMillis(5), Duration.ofMillis(2));
        try (StubModelServer stub = new StubModelServer(serverGroup, 0, behaviour, false)) {
            RequestPlan plan = RequestPlan.of(List.of(
                    planned(0, 0, "stub-status-429", 4),
                    planned(1, MS, "stub-drop", 6),
                    planned(2, 2 * MS, "good", 3)), 10 * MS);
            RunRecording run = generator.run(plan, List.of(stub.address()), LoadOptions.defaults(1.0), new LiveCounters());

            RequestResult shed = run.results().get(0);
            assertThat(shed.outcome()).as("a 429 is a refusal, not an error").isEqualTo(Outcome.REFUSED);
            assertThat(shed.outcome().isError()).isFalse();
            assertThat(shed.status()).isEqualTo(429);
            assertThat(shed.error()).contains("HTTP 429").contains("stub says 429");
            assertThat(shed.droppedReason()).isEqualTo("stub-none");
            assertThat(shed.retryAfter()).isEqualTo("1");
            assertThat(shed.ttftNanos()).isEqualTo(-1);

            RequestResult dropped = run.results().get(1);
            assertThat(dropped.outcome()).isEqualTo(Outcome.CONNECTION_ERROR);
            assertThat(dropped.ttftNanos()).as("it did see a first token").isPositive();
            assertThat(dropped.e2eNanos()).isEqualTo(-1);

            assertThat(run.results().get(2).outcome()).isEqualTo(Outcome.OK);
        }
    }

    @Test
    void thePriorityClassIsSentAsAHeaderAndARefusalKeepsItsReason() throws Exception {
        StubBehaviour behaviour = StubBehaviour.fixed(Duration.ofMillis(5), Duration.ofMillis(2));
        try (StubModelServer stub = new StubModelServer(serverGroup, 0, behaviour, false)) {
            PlannedRequest sheddable = new PlannedRequest(0, 0, new RequestSpec("stub-status-429",
                    List.of(ChatMessage.user("hello")), 2, "unique", "", "sheddable"));
            PlannedRequest critical = new PlannedRequest(1, MS, new RequestSpec("m",
                    List.of(ChatMessage.user("hello")), 2, "unique", "", "critical"));
            RunRecording run = generator.run(RequestPlan.of(List.of(sheddable, critical), 10 * MS),
                    List.of(stub.address()), LoadOptions.defaults(1.0), new LiveCounters());

            assertThat(run.results().get(0).droppedReason()).as("the stub echoes the header it got")
                    .isEqualTo("stub-sheddable");
            assertThat(run.results().get(0).priority()).isEqualTo("sheddable");
            assertThat(run.results().get(1).outcome()).isEqualTo(Outcome.OK);
            assertThat(run.results().get(1).priority()).isEqualTo("critical");
        }
    }

    @Test
    void refusedConnectionIsAConnectionError() throws Exception {
        int freePort;
        try (ServerSocket socket = new ServerSocket(0)) {
            freePort = socket.getLocalPort();
        }
        RequestPlan plan = RequestPlan.of(List.of(planned(0, 0, "m", 2)), MS);
        RunRecording run = generator.run(plan, List.of(new InetSocketAddress("127.0.0.1", freePort)),
                LoadOptions.defaults(1.0), new LiveCounters());
        assertThat(run.results().get(0).outcome()).isEqualTo(Outcome.CONNECTION_ERROR);
        assertThat(run.results().get(0).error()).contains("connect");
    }

    @Test
    void slowResponsesTimeOutAndStragglersAreCancelledAtTheDrain() throws Exception {
        StubBehaviour slow = StubBehaviour.fixed(Duration.ofSeconds(30), Duration.ofMillis(10));
        try (StubModelServer stub = new StubModelServer(serverGroup, 0, slow, false)) {
            RequestPlan plan = RequestPlan.of(List.of(planned(0, 0, "m", 2)), MS);
            LoadOptions timeout = LoadOptions.defaults(1.0).withRequestTimeout(Duration.ofMillis(200));
            RequestResult timedOut = generator.run(plan, List.of(stub.address()), timeout, new LiveCounters())
                    .results().get(0);
            assertThat(timedOut.outcome()).isEqualTo(Outcome.TIMEOUT);

            LoadOptions drain = LoadOptions.defaults(1.0).withDrainTimeout(Duration.ofMillis(200));
            LiveCounters counters = new LiveCounters();
            RequestResult cancelled = generator.run(plan, List.of(stub.address()), drain, counters).results().get(0);
            assertThat(cancelled.outcome()).isEqualTo(Outcome.CANCELLED);
            assertThat(counters.completed()).isEqualTo(1);
            assertThat(counters.errors()).isEqualTo(1);
            assertThat(counters.inFlight()).isZero();
        }
    }

    @Test
    void keepAliveConnectionsAreReusedAndCapped() throws Exception {
        StubBehaviour behaviour = StubBehaviour.fixed(Duration.ofMillis(5), Duration.ofMillis(1));
        try (StubModelServer stub = new StubModelServer(serverGroup, 0, behaviour, true)) {
            List<PlannedRequest> burst = new ArrayList<>();
            for (int i = 0; i < 30; i++) {
                burst.add(planned(i, 0, "m", 3)); // all due at once
            }
            RunRecording run = generator.run(RequestPlan.of(burst, MS), List.of(stub.address()),
                    LoadOptions.defaults(1.0).withMaxConnections(3), new LiveCounters());
            assertThat(run.results()).allSatisfy(r -> assertThat(r.outcome()).isEqualTo(Outcome.OK));
            assertThat(run.connectionsOpened()).isLessThanOrEqualTo(3);
            assertThat(stub.served()).hasSize(30);
            // queued requests waited for a connection, and that wait is part of their latency
            long maxLag = run.results().stream().mapToLong(RequestResult::sendLagNanos).max().orElseThrow();
            long maxTtft = run.results().stream().mapToLong(RequestResult::ttftNanos).max().orElseThrow();
            assertThat(maxLag).isGreaterThanOrEqualTo(5 * MS);
            assertThat(maxTtft).isGreaterThanOrEqualTo(maxLag);
        }
    }

    @Test
    void requestsGoRoundTheTargetsInTurn() throws Exception {
        StubBehaviour behaviour = StubBehaviour.fixed(Duration.ofMillis(1), Duration.ofMillis(1));
        try (StubModelServer a = new StubModelServer(serverGroup, 0, behaviour, true);
             StubModelServer b = new StubModelServer(serverGroup, 0, behaviour, true)) {
            RequestPlan plan = poissonPlan("m", 10, 100, 2, 3);
            generator.run(plan, List.of(a.address(), b.address()), LoadOptions.defaults(1.0), new LiveCounters());
            assertThat(a.served()).extracting(ServedRequest::requestId)
                    .containsExactlyInAnyOrder("bench-0", "bench-2", "bench-4", "bench-6", "bench-8");
            assertThat(b.served()).hasSize(5);
        }
    }

    @Test
    void onlyLoopbackTargets() {
        RequestPlan plan = RequestPlan.of(List.of(planned(0, 0, "m", 1)), MS);
        assertThatThrownBy(() -> generator.run(plan, List.of(new InetSocketAddress("192.0.2.1", 80)),
                LoadOptions.defaults(1.0), new LiveCounters()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("loopback");
    }

    static RequestPlan poissonPlan(String model, int requests, double rate, int maxTokens, long seed) {
        return RequestPlan.build(new UniquePromptWorkload(model, new IntRange(16, 64), IntRange.of(maxTokens)),
                new PoissonArrivals(rate), seed, Duration.ofHours(1), requests);
    }

    static PlannedRequest planned(int index, long offsetNanos, String model, int maxTokens) {
        return new PlannedRequest(index, offsetNanos,
                new RequestSpec(model, List.of(ChatMessage.user("hello " + index)), maxTokens, "unique", ""));
    }

    static Map<String, ServedRequest> byId(List<ServedRequest> served) {
        return served.stream().collect(Collectors.toMap(ServedRequest::requestId, Function.identity()));
    }

    static long median(List<Long> values) {
        long[] sorted = values.stream().mapToLong(Long::longValue).sorted().toArray();
        return sorted[(sorted.length - 1) / 2];
    }
}
