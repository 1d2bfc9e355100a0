package io.inferencegateway.request;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.inferencegateway.testing.ScriptedPolicy;
import io.inferencegateway.config.FlowControlConfig;
import io.inferencegateway.config.PoolConfig;
import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.GatewayError;
import io.inferencegateway.domain.InFlightRequests;
import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.domain.NanoClock;
import io.inferencegateway.domain.ParsedBody;
import io.inferencegateway.domain.PickDecision;
import io.inferencegateway.domain.RequestListener;
import io.inferencegateway.domain.RequestRecord;
import io.inferencegateway.domain.SchedulingPolicy;
import io.inferencegateway.openai.OpenAiErrors;
import io.inferencegateway.pool.FlowControl;
import io.inferencegateway.pool.ModelPool;
import io.inferencegateway.pool.Placement;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultHttpHeaders;

/**
 * Every way a request ends goes through its one ending, once: the pod's in-flight count comes back, the pool's queue
 * lets the next request go, the listeners (the rate limiter among them) hear the record end with its outcome, and the
 * client's body is let go. Each row drives one ending the way the route's steps and the relayed body do.
 */
class GatewayRequestTest {

    static final Endpoint POD = Endpoint.parse("10.0.0.1:8000");
    static final Object RESERVATION = new Object();
    /** Where the rate limiter keeps its reservation on the record (ratelimit/RateLimiter.RESERVATION). */
    static final RequestRecord.Key<Object> RESERVED = RequestRecord.Key.of("reservation", Object.class);

    final InFlightRequests inFlight = new InFlightRequests();
    /** One request at a time per pod: a second one waits in the pool's queue. */
    final SchedulingPolicy oneSlot = ScriptedPolicy.first()
            .saturatedWhen(candidates -> candidates.stream().allMatch(e -> inFlight.inFlight(e) > 0));
    final ModelPool pool = new ModelPool(poolConfig(), oneSlot, List.of(POD), inFlight, NanoClock.SYSTEM);
    final List<RequestRecord> ended = new ArrayList<>();
    final List<String> waiter = new ArrayList<>();
    Placement next;
    final RequestListener listener = new RequestListener() {
        @Override
        public void ended(RequestRecord record) {
            ended.add(record);
        }
    };
    final ByteBuf body = Unpooled.copiedBuffer("{\"model\":\"m\"}", StandardCharsets.UTF_8);
    final GatewayRequest request = new GatewayRequest("POST", "/v1/chat/completions", "/v1/chat/completions",
            new DefaultHttpHeaders(), body);

    static PoolConfig poolConfig() {
        FlowControlConfig defaults = FlowControlConfig.DEFAULT;
        return PoolConfig.builder("m").name("pool").endpoints(List.of(POD))
                .flowControl(new FlowControlConfig(true, defaults.maxQueued(), defaults.queueTimeout(),
                        defaults.retryAfter(), defaults.defaultPriority(), Map.of(), defaults.priorityHeader()))
                .build();
    }

    /**
     * The steps of the inference route up to the pick: recorded, parsed, served by the pool, reserved, classified,
     * admitted.
     */
    void upToThePick() {
        request.route(IngressRoute.of("inference"));
        request.startRecord(listener, NanoClock.SYSTEM);
        request.parsed(ParsedBody.builder("m").promptText("hi").promptTokensEstimate(1).stream(true).build());
        request.servedBy(pool, null);
        request.record().put(RESERVED, RESERVATION);
        RequestClassification.builtIn().classify(request);
        request.admitted(0);
    }

    /** Up to the pick, placed on the pod; a second request then waits behind it in the pool's queue. */
    void placed() {
        upToThePick();
        request.placed(Placement.choose(pool, request.inference()), 1_000);
        InferenceRequest second = InferenceRequest.builder("m").promptText("next").promptTokensEstimate(1).stream(true)
                .build();
        assertThat(pool.flowControl().admit(second)).as("the pod is full").isNull();
        pool.flowControl().enqueue(second,
                new FlowControl.Waiter() {
                    @Override
                    public void bound(Placement placement, long pickNanos) {
                        waiter.add("bound");
                        next = placement;
                    }

                    @Override
                    public void refused(GatewayError error) {
                        waiter.add("refused");
                    }
                });
        assertThat(waiter).isEmpty();
    }

    void failed(GatewayError error) {
        request.failed(error, OpenAiErrors.status(error));
    }

    static Arguments row(String ending, Consumer<GatewayRequestTest> steps, RequestRecord.Ending how,
            int status) {
        return Arguments.of(ending, steps, how, status);
    }

    static Stream<Arguments> endings() {
        return Stream.of(
                row("relayed in full", t -> {
                    t.placed();
                    t.request.record().answered(200, 1);
                    t.request.relaying();
                    t.request.exchangeEnded(); // the head is written before the body ends
                    t.request.relayEnded(RequestRecord.Ending.COMPLETED);
                }, RequestRecord.Ending.COMPLETED, 200),
                row("a short body relayed before its exchange ended", t -> {
                    t.placed();
                    t.request.record().answered(200, 1);
                    t.request.relaying();
                    t.request.relayEnded(RequestRecord.Ending.COMPLETED);
                    t.request.exchangeEnded();
                }, RequestRecord.Ending.COMPLETED, 200),
                row("refused before a pod (403)", t -> {
                    t.upToThePick();
                    t.failed(GatewayError.modelNotAllowed("m"));
                    t.request.exchangeEnded();
                }, RequestRecord.Ending.REFUSED, 403),
                row("refused before its body was read (415)", t -> {
                    t.request.route(IngressRoute.of("inference"));
                    t.request.startRecord(t.listener, NanoClock.SYSTEM);
                    t.failed(GatewayError.unsupportedMediaType("text/plain"));
                    t.request.exchangeEnded();
                }, RequestRecord.Ending.REFUSED, 415),
                row("failed before the first byte (every pod refused the connection)", t -> {
                    t.placed();
                    t.failed(GatewayError.upstreamUnavailable());
                    t.request.exchangeEnded();
                }, RequestRecord.Ending.REFUSED, 502),
                row("timed out before the response headers", t -> {
                    t.placed();
                    t.failed(GatewayError.upstreamTimeout());
                    t.request.exchangeEnded();
                }, RequestRecord.Ending.REFUSED, 504),
                row("broken mid-stream", t -> {
                    t.placed();
                    t.request.record().answered(200, 1);
                    t.request.relaying();
                    t.request.exchangeEnded();
                    t.request.relayEnded(RequestRecord.Ending.UPSTREAM_FAILED);
                }, RequestRecord.Ending.UPSTREAM_FAILED, 200),
                row("client gone mid-stream", t -> {
                    t.placed();
                    t.request.record().answered(200, 1);
                    t.request.relaying();
                    t.request.exchangeEnded();
                    t.request.relayEnded(RequestRecord.Ending.CLIENT_GONE);
                }, RequestRecord.Ending.CLIENT_GONE, 200),
                row("client gone before the response headers", t -> {
                    t.placed();
                    t.failed(GatewayError.clientClosed());
                    t.request.exchangeEnded();
                }, RequestRecord.Ending.CLIENT_GONE, 499),
                row("an error rendered instead of a relayed response", t -> {
                    t.placed();
                    t.request.relaying();
                    t.failed(GatewayError.internal());
                    t.request.relayEnded(RequestRecord.Ending.CLIENT_GONE); // the abandoned body's own end
                    t.request.exchangeEnded();
                }, RequestRecord.Ending.REFUSED, 500));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("endings")
    void everyEndingGivesEverythingBackOnce(String ending, Consumer<GatewayRequestTest> steps,
            RequestRecord.Ending how, int status) {
        steps.accept(this);

        assertThat(request.ended()).isTrue();
        assertThat(ended).as("listeners told once").hasSize(1).allSatisfy(r -> {
            assertThat(r.ending()).isEqualTo(how);
            assertThat(r.status()).isEqualTo(status);
            assertThat(r.endNanos()).isPositive();
        });
        if (request.pool() != null) {
            assertThat(ended.get(0).get(RESERVED)).as("the reservation rides to the rate limiter").isSameAs(RESERVATION);
        }
        if (request.placement() != null) {
            assertThat(waiter).as("the pool's queue let the request behind it go").containsExactly("bound");
            assertThat(inFlight.inFlight(POD)).as("only the released request is in flight").isEqualTo(1);
            next.finish();
        } else {
            assertThat(waiter).isEmpty();
        }
        assertThat(inFlight.inFlight(POD)).isZero();
        assertThat(body.refCnt()).as("the client's body let go").isZero();

        // whatever is said afterwards, the request has ended once
        request.relayEnded(RequestRecord.Ending.COMPLETED);
        request.exchangeEnded();
        assertThat(ended).hasSize(1);
    }
}
