package io.inferencegateway.shadow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.inferencegateway.testing.ScriptedPolicy;
import io.inferencegateway.config.PoolConfig;
import io.inferencegateway.config.ShadowConfig;
import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.InFlightRequests;
import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.domain.NanoClock;
import io.inferencegateway.domain.PendingPick;
import io.inferencegateway.domain.PickDecision;
import io.inferencegateway.domain.SchedulingPolicy;
import io.inferencegateway.pool.ModelPool;
import io.inferencegateway.pool.ModelPools;
import io.inferencegateway.proxy.UpstreamClient;
import io.inferencegateway.scheduling.LeastRequestPolicy;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.util.ResourceLeakDetector;

/**
 * ShadowTraffic against a real candidate over HTTP: which requests are sampled, what the copy carries, the budget, the
 * drop when the candidate's pool is full, a candidate that cannot be reached; and that the client's buffer is back as
 * it was once each copy ended, with Netty's leak detection at paranoid.
 */
class ShadowTrafficTest {

    static final String BODY = "{\"model\":\"llama-3-8b\",\"messages\":[{\"role\":\"user\",\"content\":\"hello\"}],"
            + "\"max_tokens\":3}";
    static UpstreamClient client;
    static ResourceLeakDetector.Level leakLevel;
    static ListAppender<ILoggingEvent> leaks = new ListAppender<>();

    FakeCandidate candidate;
    InFlightRequests inFlight = new InFlightRequests();
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    ModelPool primary;
    ModelPool candidatePool;
    ShadowTraffic shadow;
    boolean candidateFull;

    @BeforeAll
    static void paranoid() {
        leakLevel = ResourceLeakDetector.getLevel();
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
        leaks.start();
        ((Logger) LoggerFactory.getLogger(ResourceLeakDetector.class)).addAppender(leaks);
        client = new UpstreamClient(UpstreamClient.Options.defaults());
    }

    @AfterAll
    static void restore() {
        client.close();
        ((Logger) LoggerFactory.getLogger(ResourceLeakDetector.class)).detachAppender(leaks);
        ResourceLeakDetector.setLevel(leakLevel);
    }

    @BeforeEach
    void pools() throws Exception {
        candidate = new FakeCandidate();
        pools(new ShadowConfig("llama-v2", 100, 2), candidate.endpoint());
    }

    void pools(ShadowConfig s, Endpoint candidatePod) {
        PoolConfig p = PoolConfig.builder("llama-3-8b").name("llama").endpoints(List.of(new Endpoint("127.0.0.1", 9)))
                .shadow(s).build();
        PoolConfig c = PoolConfig.builder("llama-v2").name("v2").endpoints(List.of(candidatePod)).build();
        primary = new ModelPool(p, new LeastRequestPolicy(inFlight), p.endpoints(), inFlight, NanoClock.SYSTEM);
        candidatePool = new ModelPool(c, ScriptedPolicy.first().saturatedWhen(candidates -> candidateFull),
                c.endpoints(), inFlight, NanoClock.SYSTEM);
        ModelPools pools = new ModelPools(List.of(primary, candidatePool));
        ShadowMeters meters = new ShadowMeters();
        meters.bindTo(registry);
        shadow = new ShadowTraffic(() -> pools, NanoClock.SYSTEM, meters);
    }

    @AfterEach
    void stop() {
        candidate.close();
    }

    /** The client's body as the gateway holds it: a pooled direct buffer, one reference (the exchange's). */
    static ByteBuf clientBody() {
        ByteBuf b = PooledByteBufAllocator.DEFAULT.directBuffer();
        b.writeCharSequence(BODY, StandardCharsets.UTF_8);
        return b;
    }

    ShadowCopy copyOf(ByteBuf clientBody, String requestId) {
        HttpHeaders h = new DefaultHttpHeaders();
        h.set("content-type", "application/json");
        h.set("authorization", "Bearer k");
        h.set("x-request-id", requestId);
        return new ShadowCopy(primary,
                InferenceRequest.builder("llama-3-8b").promptText("hello").promptTokensEstimate(2).build(), "POST",
                "/v1/chat/completions", h, clientBody.retainedDuplicate(), requestId, true);
    }

    double count(String outcome) {
        return registry.get("inference_gateway_shadow_requests").tags("pool", "llama", "candidate", "llama-v2",
                "outcome", outcome).counter().count();
    }

    @Test
    void aShareOfRequestIdsIsSampledAndTheSameIdAlwaysGetsTheSameAnswer() {
        ShadowConfig five = new ShadowConfig("x", 5, 8);
        int sampled = 0;
        int n = 100_000;
        for (int i = 0; i < n; i++) {
            String id = UUID.randomUUID().toString();
            boolean first = ShadowTraffic.sampled(five, id);
            assertThat(ShadowTraffic.sampled(five, id)).isEqualTo(first);
            sampled += first ? 1 : 0;
        }
        assertThat(sampled / (double) n).isBetween(0.047, 0.053);

        int withoutId = 0;
        for (int i = 0; i < n; i++) {
            withoutId += ShadowTraffic.sampled(five, null) ? 1 : 0;
        }
        assertThat(withoutId / (double) n).isBetween(0.047, 0.053);
        assertThat(ShadowTraffic.sampled(new ShadowConfig("x", 100, 8), "any")).isTrue();
        assertThat(ShadowTraffic.sampled(new ShadowConfig("x", 0.0001, 8), "r-1")).isFalse();
    }

    @Test
    void theCopyNamesTheCandidateCarriesTheShadowHeaderAndIsCountedWhenItsAnswerWasRead() throws Exception {
        ByteBuf body = clientBody();
        shadow.send(copyOf(body, "req-1"), client, null, null);

        await().atMost(Duration.ofSeconds(10)).until(() -> count("sent") == 1);
        FakeCandidate.Received r = candidate.received.get(0);
        assertThat(r.body()).isEqualTo(BODY.replace("\"llama-3-8b\"", "\"llama-v2\""));
        assertThat(r.shadowHeader()).isEqualTo("1");
        assertThat(r.requestId()).isEqualTo("req-1");
        assertThat(r.authorization()).isEqualTo("Bearer k");
        assertThat(registry.get("inference_gateway_shadow_responses").tag("status", "200").counter().count())
                .isEqualTo(1);
        assertThat(registry.get("inference_gateway_shadow_tokens").tag("type", "output").counter().count()).isEqualTo(3);
        assertThat(registry.get("inference_gateway_shadow_tokens").tag("type", "input").counter().count()).isEqualTo(7);
        assertThat(registry.get("inference_gateway_shadow_ttft").timer().count()).isEqualTo(1);
        assertThat(registry.get("inference_gateway_shadow_duration").timer().count()).isEqualTo(1);
        assertThat(inFlight.inFlight(candidate.endpoint())).isZero();
        assertThat(shadow.inFlight("llama")).isZero();
        assertReleased(body);
    }

    @Test
    void beyondMaxInFlightACopyIsDroppedAndTheBudgetComesBackWhenTheCopiesEnd() throws Exception {
        candidate.hold();
        ByteBuf body = clientBody();
        for (int i = 0; i < 3; i++) {
            shadow.send(copyOf(body, "req-" + i), client, null, null);
        }

        await().atMost(Duration.ofSeconds(10)).until(() -> candidate.received.size() == 2);
        assertThat(count("dropped_budget")).isEqualTo(1);
        assertThat(shadow.inFlight("llama")).isEqualTo(2);
        assertThat(inFlight.inFlight(candidate.endpoint())).isEqualTo(2); // real traffic's picks see them
        assertThat(registry.get("inference_gateway_shadow_in_flight").gauge().value()).isEqualTo(2);

        candidate.release();
        await().atMost(Duration.ofSeconds(10)).until(() -> count("sent") == 2);
        assertThat(shadow.inFlight("llama")).isZero();
        assertThat(inFlight.inFlight(candidate.endpoint())).isZero();
        shadow.send(copyOf(body, "req-after"), client, null, null);
        await().atMost(Duration.ofSeconds(10)).until(() -> count("sent") == 3);
        assertReleased(body);
    }

    @Test
    void aFullCandidatePoolDropsTheCopyAtOnceAndSendsNothing() throws Exception {
        candidateFull = true;
        ByteBuf body = clientBody();
        shadow.send(copyOf(body, "req-1"), client, null, null);

        assertThat(count("dropped_saturated")).isEqualTo(1);
        assertThat(count("sent")).isZero();
        assertThat(shadow.inFlight("llama")).isZero();
        assertThat(candidate.received).isEmpty();
        assertReleased(body);
    }

    @Test
    void aCandidateThatCannotBeReachedIsAFailedCopyAndGivesItsPlaceBack() throws Exception {
        pools(new ShadowConfig("llama-v2", 100, 2), new Endpoint("127.0.0.1", closedPort()));
        ByteBuf body = clientBody();
        shadow.send(copyOf(body, "req-1"), client, null, null);

        await().atMost(Duration.ofSeconds(10)).until(() -> count("failed") == 1);
        assertThat(shadow.inFlight("llama")).isZero();
        assertThat(inFlight.total()).isZero();
        assertReleased(body);
    }

    @Test
    void aCandidateNoLongerServedIsAFailedCopy() throws Exception {
        pools(new ShadowConfig("llama-v3", 100, 2), candidate.endpoint());
        ByteBuf body = clientBody();
        shadow.send(copyOf(body, "req-1"), client, null, null);

        assertThat(registry.get("inference_gateway_shadow_requests").tags("candidate", "llama-v3", "outcome", "failed")
                .counter().count()).isEqualTo(1);
        assertReleased(body);
    }

    /** The client's buffer holds only the exchange's reference again, and nothing Netty tracks was lost. */
    static void assertReleased(ByteBuf clientBody) {
        await().atMost(Duration.ofSeconds(5)).until(() -> clientBody.refCnt() == 1);
        assertThat(clientBody.release()).isTrue();
        for (int i = 0; i < 3; i++) { // a collected buffer that was never released is reported at a later allocation
            System.gc();
            PooledByteBufAllocator.DEFAULT.directBuffer(64).release();
        }
        assertThat(leaks.list).extracting(ILoggingEvent::getFormattedMessage).noneMatch(m -> m.contains("LEAK"));
    }

    static int closedPort() throws Exception {
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
