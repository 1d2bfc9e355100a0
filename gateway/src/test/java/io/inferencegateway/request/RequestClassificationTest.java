package io.inferencegateway.request;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.inferencegateway.testing.ScriptedPolicy;
import io.inferencegateway.config.FlowControlConfig;
import io.inferencegateway.config.PoolConfig;
import io.inferencegateway.config.SessionAffinityConfig;
import io.inferencegateway.config.SessionAffinityConfig.SessionKey;
import io.inferencegateway.config.SloConfig;
import io.inferencegateway.config.TenantConfig;
import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.GatewayError;
import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.domain.LatencyTargets;
import io.inferencegateway.domain.NanoClock;
import io.inferencegateway.domain.ParsedBody;
import io.inferencegateway.domain.PickDecision;
import io.inferencegateway.domain.Priority;
import io.inferencegateway.domain.RequestListener;
import io.inferencegateway.domain.Residency;
import io.inferencegateway.pool.ModelPool;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;

/**
 * The classification step as a whole, on requests as the route's earlier steps leave them: what each built-in
 * classifier decides lands on the one {@link InferenceRequest} built, the request and its record hold that one, and
 * a request is classified once.
 */
class RequestClassificationTest {

    static final Endpoint POD = Endpoint.parse("10.0.0.1:8000");
    static final TenantConfig PINNED = new TenantConfig("eu-team", null, null, 2, TenantConfig.Limits.NONE, List.of(),
            new LatencyTargets(400, 0), new Residency(Set.of("eu-west"), false));
    static final SessionAffinityConfig HEADER_FIRST = new SessionAffinityConfig(true,
            List.of(SessionKey.HEADER, SessionKey.PROMPT_CACHE_KEY, SessionKey.USER), "x-session-id",
            SessionAffinityConfig.DEFAULT_IDLE_TIMEOUT, SessionAffinityConfig.DEFAULT_MAX_SESSIONS);

    static ModelPool pool(SessionAffinityConfig sessions) {
        FlowControlConfig d = FlowControlConfig.DEFAULT;
        PoolConfig config = PoolConfig.builder("llama").loraAdapters(List.of("sql")).endpoints(List.of(POD))
                .flowControl(new FlowControlConfig(true, d.maxQueued(), d.queueTimeout(), d.retryAfter(),
                        d.defaultPriority(), Map.of("sql", Priority.CRITICAL), true))
                .slo(new SloConfig(new LatencyTargets(5_000, 100), Map.of()))
                .sessionAffinity(sessions)
                .build();
        return new ModelPool(config, ScriptedPolicy.first(), List.of(POD));
    }

    /** A request as the steps before classification leave it: recorded, parsed, maybe rewritten, served. */
    static GatewayRequest served(ParsedBody body, HttpHeaders headers, TenantConfig tenant, String adapter,
            SessionAffinityConfig sessions) {
        GatewayRequest request = new GatewayRequest("POST", "/v1/chat/completions", "/v1/chat/completions", headers,
                Unpooled.copiedBuffer("{}", StandardCharsets.UTF_8));
        request.route(IngressRoute.of("inference"));
        request.tenant(tenant);
        request.startRecord(new RequestListener() {
            @Override
            public void ended(io.inferencegateway.domain.RequestRecord record) {
            }
        }, NanoClock.SYSTEM);
        request.parsed(body);
        request.servedBy(pool(sessions), adapter);
        return request;
    }

    static HttpHeaders headers(String... nameValues) {
        HttpHeaders h = new DefaultHttpHeaders();
        for (int i = 0; i < nameValues.length; i += 2) {
            h.add(nameValues[i], nameValues[i + 1]);
        }
        return h;
    }

    static final ParsedBody CHAT = ParsedBody.builder("llama").promptText("user: hi").promptTokensEstimate(2)
            .stream(true).maxTokens(64).promptCacheKey("conv-7").user("alice").build();

    static Arguments row(String why, GatewayRequest request, String model, String adapter, int priority,
            LatencyTargets targets, String fairnessKey, String session, Residency residency) {
        return Arguments.of(why, request, model, adapter, priority, targets, fairnessKey, session, residency);
    }

    static Stream<Arguments> requests() {
        return Stream.of(
                row("no header, no tenant: the pool's defaults and the body's first session key",
                        served(CHAT, headers(), null, null, SessionAffinityConfig.DEFAULT),
                        "llama", null, Priority.STANDARD, new LatencyTargets(5_000, 100), null, "conv-7",
                        Residency.ANY),
                row("the headers win, each on its own",
                        served(CHAT, headers("x-gateway-priority", "sheddable", "x-slo-ttft-ms", "200",
                                "x-gateway-fairness-id", "user-9", "x-session-id", "s-1"), PINNED, null,
                                SessionAffinityConfig.DEFAULT),
                        "llama", null, Priority.SHEDDABLE, new LatencyTargets(200, 100), "user-9", "conv-7",
                        PINNED.residency()),
                row("the tenant's priority, targets, name and residency",
                        served(CHAT, headers(), PINNED, null, SessionAffinityConfig.DEFAULT),
                        "llama", null, 2, new LatencyTargets(400, 100), "eu-team", "conv-7", PINNED.residency()),
                row("an adapter: its pool's priority for it",
                        served(ParsedBody.builder("sql").build(), headers(), null, "sql", SessionAffinityConfig.DEFAULT),
                        "sql", "sql", Priority.CRITICAL, new LatencyTargets(5_000, 100), null, null, Residency.ANY),
                row("the pool's session keys in its order: the header first",
                        served(CHAT, headers("x-session-id", "s-1"), null, null, HEADER_FIRST),
                        "llama", null, Priority.STANDARD, new LatencyTargets(5_000, 100), null, "s-1",
                        Residency.ANY),
                row("an empty key counts as absent",
                        served(CHAT, headers("x-session-id", ""), null, null, HEADER_FIRST),
                        "llama", null, Priority.STANDARD, new LatencyTargets(5_000, 100), null, "conv-7",
                        Residency.ANY),
                row("a pool without session affinity: no session",
                        served(CHAT, headers("x-session-id", "s-1"), null, null, SessionAffinityConfig.OFF),
                        "llama", null, Priority.STANDARD, new LatencyTargets(5_000, 100), null, null,
                        Residency.ANY));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("requests")
    void everyClassifierNamesItsFactOnTheOneRequestBuilt(String why, GatewayRequest request, String model,
            String adapter, int priority, LatencyTargets targets, String fairnessKey, String session,
            Residency residency) {
        InferenceRequest built = RequestClassification.builtIn().classify(request);

        assertThat(built.model()).isEqualTo(model);
        assertThat(built.adapter()).isEqualTo(adapter);
        assertThat(built.priority()).isEqualTo(priority);
        assertThat(built.targets()).isEqualTo(targets);
        assertThat(built.fairnessKey()).isEqualTo(fairnessKey);
        assertThat(built.session()).isEqualTo(session);
        assertThat(built.residency()).isEqualTo(residency);
        assertThat(built.body()).as("the body as parsed, not a copy").isSameAs(request.parsedBody());
        assertThat(request.inference()).isSameAs(built);
        assertThat(request.record().classified()).as("the record reads the request, not a copy").isSameAs(built);
        assertThat(request.record().priority()).isEqualTo(priority);
        assertThat(request.record().targets()).isEqualTo(targets);
    }

    @Test
    void aRewrittenRequestIsServedAsItsTargetWhileItsBodyKeepsTheClientsModel() {
        GatewayRequest request = served(ParsedBody.builder("chat").build(), headers(), null, null,
                SessionAffinityConfig.OFF);
        request.rewritten("chat", "llama", Unpooled.copiedBuffer("{}", StandardCharsets.UTF_8), null);

        InferenceRequest built = RequestClassification.builtIn().classify(request);

        assertThat(built.model()).isEqualTo("llama");
        assertThat(request.record().request().model()).as("the record's body: what the client asked for")
                .isEqualTo("chat");
    }

    @Test
    void aBadHeaderIsA400AndLeavesTheRequestUnclassified() {
        GatewayRequest request = served(CHAT, headers("x-gateway-priority", "urgent"), null, null,
                SessionAffinityConfig.OFF);

        assertThatThrownBy(() -> RequestClassification.builtIn().classify(request))
                .isInstanceOfSatisfying(GatewayError.class, e -> assertThat(e.getMessage()).isEqualTo(
                        "Header x-gateway-priority must be critical, standard, sheddable or an integer within +-"
                                + Priority.LIMIT + ", got 'urgent'"));
        assertThat(request.inference()).isNull();
        assertThat(request.record().priority()).isZero();
    }

    @Test
    void theClassifiersRunInTheirOrderOnceAndTheRequestIsClassifiedOnce() {
        List<String> ran = new ArrayList<>();
        RequestClassification classification = new RequestClassification(List.of(
                (request, into) -> ran.add("first"),
                (request, into) -> {
                    ran.add("second");
                    into.priority(Priority.CRITICAL);
                }));
        GatewayRequest request = served(CHAT, headers(), null, null, SessionAffinityConfig.OFF);

        InferenceRequest built = classification.classify(request);

        assertThat(ran).containsExactly("first", "second");
        assertThat(built.priority()).isEqualTo(Priority.CRITICAL);
        assertThatThrownBy(() -> classification.classify(request)).isInstanceOf(IllegalStateException.class);
        assertThat(request.inference()).isSameAs(built);
    }

    @Test
    void theBuiltInClassifiersAreRegisteredInOneList() {
        assertThat(RequestClassification.BUILT_IN).extracting(c -> c.getClass().getSimpleName()).containsExactly(
                "ServedModelClassifier", "PriorityClassifier", "LatencyTargetsClassifier", "FairnessKeyClassifier",
                "SessionKeyClassifier", "ResidencyClassifier");
    }
}
