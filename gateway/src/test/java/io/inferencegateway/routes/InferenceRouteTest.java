package io.inferencegateway.routes;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import org.apache.camel.BindToRegistry;
import org.apache.camel.EndpointInject;
import org.apache.camel.Exchange;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.test.main.junit5.CamelMainTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import io.inferencegateway.config.ConfigLoader;
import io.inferencegateway.runtime.Gateway;
import io.inferencegateway.domain.NanoClock;
import io.inferencegateway.camel.AdmitRequest;
import io.inferencegateway.camel.AuthorizeModel;
import io.inferencegateway.camel.CopyToShadow;
import io.inferencegateway.camel.ClassifyRequest;
import io.inferencegateway.camel.EndpointPicker;
import io.inferencegateway.camel.EnforceRateLimit;
import io.inferencegateway.camel.ChooseModelVersion;
import io.inferencegateway.camel.GatewayBeans;
import io.inferencegateway.camel.GatewayExchange;
import io.inferencegateway.camel.ModelServed;
import io.inferencegateway.camel.OpenAiErrorResponse;
import io.inferencegateway.camel.ParseInferenceRequest;
import io.inferencegateway.camel.ResolveModelPool;
import io.inferencegateway.camel.TokenizePrompt;
import io.inferencegateway.domain.ModelNotFoundException;
import io.inferencegateway.proxy.UpstreamResponse;
import io.inferencegateway.testing.TestUpstream;
import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.request.GatewayRequest;
import io.inferencegateway.request.IngressRoute;
import io.inferencegateway.request.RequestClassification;
import io.inferencegateway.request.RequestClassifier;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultHttpHeaders;

/**
 * The inference route's YAML on its own (no HTTP ingress): its content-based router answers an unknown
 * model with a 404, and its dynamic to (toD) sends a known one to the pod the EndpointPicker chose.
 */
@CamelMainTest(properties = {
        "camel.main.routes-include-pattern=classpath:routes/inference.camel.yaml,classpath:routes/error-handling.camel.yaml",
})
class InferenceRouteTest {

    static final TestUpstream UPSTREAM = upstream();
    final Gateway gateway = gateway();

    @BindToRegistry("parseInferenceRequest")
    final ParseInferenceRequest parseInferenceRequest = GatewayBeans.parseInferenceRequest(gateway);
    @BindToRegistry("chooseModelVersion")
    final ChooseModelVersion chooseModelVersion = GatewayBeans.chooseModelVersion(gateway);
    @BindToRegistry("resolveModelPool")
    final ResolveModelPool resolveModelPool = GatewayBeans.resolveModelPool(gateway);
    @BindToRegistry("modelServed")
    final ModelServed modelServed = new ModelServed();
    @BindToRegistry("admitRequest")
    final AdmitRequest admitRequest = new AdmitRequest();
    /** How many times the route classified a request: the built-in classifiers and one that counts. */
    final AtomicInteger classified = new AtomicInteger();
    @BindToRegistry("classifyRequest")
    final ClassifyRequest classifyRequest = new ClassifyRequest(new RequestClassification(
            Stream.concat(RequestClassification.BUILT_IN.stream(),
                    Stream.<RequestClassifier>of((request, into) -> classified.incrementAndGet())).toList()));
    @BindToRegistry("authorizeModel")
    final AuthorizeModel authorizeModel = new AuthorizeModel();
    @BindToRegistry("tokenizePrompt")
    final TokenizePrompt tokenizePrompt = GatewayBeans.tokenizePrompt(gateway);
    @BindToRegistry("enforceRateLimit")
    final EnforceRateLimit enforceRateLimit = GatewayBeans.enforceRateLimit(gateway);
    @BindToRegistry("copyToShadow")
    final CopyToShadow copyToShadow = GatewayBeans.copyToShadow(gateway);
    @BindToRegistry("endpointPicker")
    final EndpointPicker endpointPicker = new EndpointPicker();
    @BindToRegistry("openAiErrorResponse")
    final OpenAiErrorResponse openAiErrorResponse = new OpenAiErrorResponse();

    @EndpointInject("direct:inference")
    ProducerTemplate inference;

    static TestUpstream upstream() {
        try {
            return new TestUpstream().behave(new TestUpstream.Json(200, "{\"id\":\"x\"}"));
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    static Gateway gateway() {
        try {
            return new Gateway(ConfigLoader.parse("""
                    kind: InferenceGatewayConfig
                    spec:
                      schedulers:
                        - {modelName: m, endpoints: ["%s"], policy: round-robin}
                    """.formatted(UPSTREAM.address())), NanoClock.SYSTEM);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @AfterAll
    static void stop() {
        UPSTREAM.close();
    }

    @Test
    void unknownModelTakesTheRoutersNotFoundBranch() {
        int before = UPSTREAM.received().size();
        Exchange out = send("{\"model\":\"gpt-9\"}");
        // the request path has no error handler: the ingress renders this as a 404 model_not_found
        // (routes/error-handling.camel.yaml; over HTTP in e2e/BadInputTest)
        assertThat(out.getException()).isInstanceOf(ModelNotFoundException.class).hasMessageContaining("gpt-9");
        assertThat(UPSTREAM.received()).hasSize(before);
    }

    @Test
    void knownModelGoesThroughTheRecipientListToItsPod() {
        Exchange out = send("{\"model\":\"m\",\"prompt\":\"hi\"}");
        assertThat(out.getException()).isNull();
        assertThat(out.getMessage().getBody()).isInstanceOf(UpstreamResponse.class);
        assertThat(out.getMessage().getHeader(Exchange.HTTP_RESPONSE_CODE)).isEqualTo(200);
        ((UpstreamResponse) out.getMessage().getBody()).body().abandon();
        assertThat(UPSTREAM.received().get(UPSTREAM.received().size() - 1).bodyText())
                .isEqualTo("{\"model\":\"m\",\"prompt\":\"hi\"}");
    }

    @Test
    void aRequestIsClassifiedOnceAndEveryStepAfterReadsTheOneRequestBuilt() {
        Exchange out = send("{\"model\":\"m\",\"prompt\":\"hi\"}");
        assertThat(out.getException()).isNull();
        ((UpstreamResponse) out.getMessage().getBody()).body().abandon();

        GatewayRequest request = GatewayExchange.request(out);
        InferenceRequest built = request.inference();
        assertThat(classified).hasValue(1);
        assertThat(built.body()).as("built from the body as parsed").isSameAs(request.parsedBody());
        assertThat(request.placement().request()).as("the pick's").isSameAs(built);
        assertThat(request.record().classified()).as("the record's").isSameAs(built);
        assertThat(request.record().request()).as("the record's body").isSameAs(request.parsedBody());
    }

    /** Sends {@code json} as the ingress would hand it over: a request dispatched to the inference route. */
    private Exchange send(String json) {
        return inference.send(e -> {
            ByteBuf body = Unpooled.wrappedBuffer(json.getBytes(StandardCharsets.UTF_8));
            e.getMessage().setHeader(Exchange.CONTENT_TYPE, "application/json");
            e.getMessage().setBody(body);
            GatewayRequest request = GatewayExchange.begin(e, new GatewayRequest("POST", "/v1/completions",
                    "/v1/completions", new DefaultHttpHeaders().set("content-type", "application/json"), body));
            request.route(IngressRoute.of("inference"));
        });
    }
}
