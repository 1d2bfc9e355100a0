package io.inferencegateway.camel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.apache.camel.Exchange;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.support.DefaultExchange;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.inferencegateway.config.ConfigLoader;
import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.GatewayError;
import io.inferencegateway.domain.NanoClock;
import io.inferencegateway.domain.ParsedBody;
import io.inferencegateway.domain.Priority;
import io.inferencegateway.domain.RequestListener;
import io.inferencegateway.domain.RequestRecord;
import io.inferencegateway.pool.Placement;
import io.inferencegateway.request.GatewayRequest;
import io.inferencegateway.request.IngressRoute;
import io.inferencegateway.runtime.Gateway;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultHttpHeaders;

/** The thin processors, each on a bare exchange without a route. */
class ProcessorsTest {

    static final DefaultCamelContext CAMEL = new DefaultCamelContext();
    final Gateway gateway;
    final List<RequestRecord> started = new ArrayList<>();
    final RequestListener listener = new RequestListener() {
        @Override
        public void started(RequestRecord record) {
            started.add(record);
        }

        @Override
        public void ended(RequestRecord record) {
        }
    };

    ProcessorsTest() throws Exception {
        gateway = new Gateway(ConfigLoader.parse("""
                kind: InferenceGatewayConfig
                spec:
                  schedulers:
                    - {name: llama, modelName: llama, loraAdapters: [sql], policy: round-robin,
                       endpoints: ["10.0.0.1:8000", "10.0.0.2:8000"]}
                """), NanoClock.SYSTEM);
    }

    /** An exchange as the ingress's binding makes it: its request, and the headers Camel's own steps read. */
    static Exchange exchange(String method, String path, String contentType, String body) {
        Exchange e = new DefaultExchange(CAMEL);
        DefaultHttpHeaders headers = new DefaultHttpHeaders();
        if (contentType != null) {
            headers.set("content-type", contentType);
            e.getMessage().setHeader(Exchange.CONTENT_TYPE, contentType);
        }
        e.getMessage().setHeader(Exchange.HTTP_METHOD, method);
        e.getMessage().setHeader(Exchange.HTTP_PATH, path);
        ByteBuf bytes = Unpooled.wrappedBuffer(body.getBytes(StandardCharsets.UTF_8));
        e.getMessage().setBody(bytes);
        GatewayExchange.begin(e, new GatewayRequest(method, path, path, headers, bytes));
        return e;
    }

    static Exchange exchange(String contentType, String body) {
        return exchange("POST", "/v1/completions", contentType, body);
    }

    /** An exchange whose request was parsed as {@code parsed}. */
    Exchange parsed(ParsedBody parsed) {
        Exchange e = exchange("application/json", "");
        GatewayRequest request = GatewayExchange.request(e);
        request.route(IngressRoute.of("inference"));
        request.startRecord(listener, NanoClock.SYSTEM);
        request.parsed(parsed);
        return e;
    }

    ParseInferenceRequest parse() {
        return new ParseInferenceRequest(listener, NanoClock.SYSTEM, () -> Integer.MAX_VALUE);
    }

    @Test
    void parseReadsTheBodyWithoutConsumingItAndStartsTheRecord() {
        String body = "{\"model\":\"sql\",\"prompt\":\"p\"}";
        Exchange e = exchange("application/json; charset=utf-8", body);
        parse().process(e);
        assertThat(GatewayExchange.request(e).parsedBody().model()).isEqualTo("sql");
        assertThat(GatewayExchange.request(e).body().readableBytes()).as("body left whole").isEqualTo(body.length());
        assertThat(started).hasSize(1).allSatisfy(r -> assertThat(r.request().model()).isEqualTo("sql"));
    }

    @Test
    void parseRefusesOtherContentTypesWith415AndRecordsTheRequestFirst() {
        assertThatThrownBy(() -> parse().process(exchange("text/plain", "{\"model\":\"m\"}")))
                .isInstanceOfSatisfying(GatewayError.class, g -> assertThat(g.reason()).isEqualTo(GatewayError.Reason.UNSUPPORTED_MEDIA_TYPE));
        assertThat(started).hasSize(1);
    }

    @Test
    void adapterNameResolvesToItsBaseModelsPoolAndMarksTheAdapter() {
        Exchange e = parsed(ParsedBody.builder("sql").promptText("p").promptTokensEstimate(1).build());
        new ResolveModelPool(gateway::pools).process(e);
        assertThat(GatewayExchange.request(e).pool().name()).isEqualTo("llama");
        assertThat(GatewayExchange.request(e).adapter()).isEqualTo("sql");
        assertThat(new ModelServed().matches(e)).isTrue();
    }

    @Test
    void unknownModelLeavesThePoolUnset() {
        Exchange e = parsed(ParsedBody.builder("gpt-9").build());
        new ResolveModelPool(gateway::pools).process(e);
        assertThat(GatewayExchange.request(e).pool()).isNull();
        assertThat(new ModelServed().matches(e)).isFalse();
    }

    @Test
    void pickerPlacesTheRequestAndAnswersItsPodsUpstreamEndpoint() {
        Exchange e = parsed(ParsedBody.builder("llama").promptText("p").promptTokensEstimate(7).build());
        new ResolveModelPool(gateway::pools).process(e);
        new ClassifyRequest().process(e);
        EndpointPicker picker = new EndpointPicker();
        String uri = picker.evaluate(e, String.class);
        Placement placement = GatewayExchange.request(e).placement();
        assertThat(uri).isEqualTo("upstream://" + placement.endpoint()); // Camel's normalized form
        assertThat(placement.endpoint()).isIn(Endpoint.parse("10.0.0.1:8000"), Endpoint.parse("10.0.0.2:8000"));
        assertThat(GatewayExchange.request(e).record().attempts()).isEqualTo(1);
        assertThat(gateway.inFlight().inFlight(placement.endpoint())).isEqualTo(1);
        // the request ends with its exchange (nothing was relayed): its pod's count goes back
        GatewayExchange.request(e).exchangeEnded();
        assertThat(gateway.inFlight().inFlight(placement.endpoint())).isZero();
    }

    @Test
    void pickerAnswersThePodTheQueuePlacedTheRequestOnOnceAndForAll() {
        Exchange e = parsed(ParsedBody.builder("llama").promptText("p").promptTokensEstimate(7).build());
        new ResolveModelPool(gateway::pools).process(e);
        new ClassifyRequest().process(e);
        GatewayRequest request = GatewayExchange.request(e);
        Placement queued = Placement.choose(request.pool(), request.inference());
        request.placed(queued, 0);
        EndpointPicker picker = new EndpointPicker();

        Object upstream = picker.evaluate(e, Object.class);
        assertThat(upstream).isInstanceOf(UpstreamEndpoint.class).isSameAs(picker.evaluate(e, Object.class));
        assertThat(((UpstreamEndpoint) upstream).target()).isEqualTo(queued.endpoint());
        assertThat(request.placement()).isSameAs(queued);
        assertThat(gateway.inFlight().total()).isEqualTo(1);
        request.exchangeEnded();
    }

    @Test
    void classifyBuildsTheRequestOnceAndAdmitLetsItGoWhileThePoolHasRoom() {
        Exchange e = parsed(ParsedBody.builder("sql").promptText("p").promptTokensEstimate(1).build());
        GatewayRequest request = GatewayExchange.request(e);
        request.headers().set("x-gateway-priority", "critical");
        new ResolveModelPool(gateway::pools).process(e);

        new ClassifyRequest().process(e);
        assertThat(request.inference().adapter()).isEqualTo("sql");
        assertThat(request.inference().priority()).isEqualTo(Priority.CRITICAL);
        assertThat(request.record().priority()).isEqualTo(Priority.CRITICAL);
        assertThatThrownBy(() -> new ClassifyRequest().process(e)).as("once")
                .isInstanceOf(IllegalStateException.class);

        List<Boolean> done = new ArrayList<>();
        assertThat(new AdmitRequest().process(e, done::add)).as("a round-robin pool never waits").isTrue();
        assertThat(done).containsExactly(true);
        assertThat(e.getException()).isNull();
        assertThat(request.record().queueNanos()).isZero();
    }

    @Test
    void classifyRefusesABadHeaderWithA400() {
        Exchange e = parsed(ParsedBody.builder("llama").build());
        GatewayExchange.request(e).headers().set("x-slo-ttft-ms", "soon");
        new ResolveModelPool(gateway::pools).process(e);

        assertThatThrownBy(() -> new ClassifyRequest().process(e)).isInstanceOfSatisfying(GatewayError.class,
                g -> assertThat(g.reason()).isEqualTo(GatewayError.Reason.INVALID_REQUEST));
        assertThat(GatewayExchange.request(e).inference()).isNull();
    }

    @Test
    void errorResponseRendersGatewayErrorsWithTheirHeadersAndHidesOthers() throws Exception {
        Exchange e = exchange(null, "");
        e.setProperty(Exchange.EXCEPTION_CAUGHT, GatewayError.methodNotAllowed("GET", "/v1/completions", "POST"));
        new OpenAiErrorResponse().process(e);
        assertThat(e.getMessage().getHeader(Exchange.HTTP_RESPONSE_CODE)).isEqualTo(405);
        assertThat(new ObjectMapper().readTree(e.getMessage().getBody(byte[].class)).at("/error/code").asText())
                .isEqualTo("method_not_allowed");
        assertThat(GatewayExchange.request(e).responseHeaders().get("Allow")).isEqualTo("POST");

        Exchange other = exchange(null, "");
        other.setProperty(Exchange.EXCEPTION_CAUGHT, new IllegalStateException("secret internals"));
        new OpenAiErrorResponse().process(other);
        assertThat(other.getMessage().getHeader(Exchange.HTTP_RESPONSE_CODE)).isEqualTo(500);
        assertThat(new String(other.getMessage().getBody(byte[].class), StandardCharsets.UTF_8)).doesNotContain("secret");
    }

    @Test
    void theMediaTypeIsMatchedWithoutItsParametersCaseAndBlanks() {
        assertThat(ParseInferenceRequest.isMime("application/json", "application/json")).isTrue();
        assertThat(ParseInferenceRequest.isMime(" Application/JSON ; charset=utf-8", "application/json")).isTrue();
        assertThat(ParseInferenceRequest.isMime("application/json;charset=utf-8", "application/json")).isTrue();
        assertThat(ParseInferenceRequest.isMime("application/jsonl", "application/json")).isFalse();
        assertThat(ParseInferenceRequest.isMime("application/jso", "application/json")).isFalse();
        assertThat(ParseInferenceRequest.isMime("  ", "application/json")).isFalse();
        assertThat(ParseInferenceRequest.isMime(null, "application/json")).isFalse();
        assertThat(ParseInferenceRequest.isMime("multipart/form-data; boundary=x", "multipart/form-data")).isTrue();
    }
}
