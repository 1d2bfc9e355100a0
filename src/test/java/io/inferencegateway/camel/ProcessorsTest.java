package io.inferencegateway.camel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;

import org.apache.camel.Exchange;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.support.DefaultExchange;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.inferencegateway.config.ConfigLoader;
import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.runtime.Gateway;
import io.inferencegateway.domain.GatewayError;
import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.pool.ModelPool;
import io.inferencegateway.domain.NanoClock;
import io.inferencegateway.pool.Placement;
import io.netty.buffer.Unpooled;

/** The thin processors, each on a bare exchange without a route. */
class ProcessorsTest {

    static final DefaultCamelContext CAMEL = new DefaultCamelContext();
    final Gateway gateway;

    ProcessorsTest() throws Exception {
        gateway = new Gateway(ConfigLoader.parse("""
                kind: InferenceGatewayConfig
                spec:
                  schedulers:
                    - {name: llama, modelName: llama, loraAdapters: [sql], policy: round-robin,
                       endpoints: ["10.0.0.1:8000", "10.0.0.2:8000"]}
                """), NanoClock.SYSTEM);
    }

    static Exchange exchange(String contentType, String body) {
        Exchange e = new DefaultExchange(CAMEL);
        e.getMessage().setHeader(Exchange.CONTENT_TYPE, contentType);
        e.getMessage().setBody(Unpooled.wrappedBuffer(body.getBytes(StandardCharsets.UTF_8)));
        return e;
    }

    @Test
    void parseReadsTheBodyWithoutConsumingIt() {
        String body = "{\"model\":\"sql\",\"prompt\":\"p\"}";
        Exchange e = exchange("application/json; charset=utf-8", body);
        new ParseInferenceRequest(gateway).process(e);
        assertThat(e.getProperty(GatewayExchange.REQUEST, InferenceRequest.class).model()).isEqualTo("sql");
        assertThat(e.getMessage().getBody(io.netty.buffer.ByteBuf.class).readableBytes()).as("body left whole")
                .isEqualTo(body.length());
    }

    @Test
    void parseRefusesOtherContentTypesWith415() {
        assertThatThrownBy(() -> new ParseInferenceRequest(gateway).process(exchange("text/plain", "{\"model\":\"m\"}")))
                .isInstanceOfSatisfying(GatewayError.class, g -> assertThat(g.reason()).isEqualTo(GatewayError.Reason.UNSUPPORTED_MEDIA_TYPE));
    }

    @Test
    void adapterNameResolvesToItsBaseModelsPoolAndMarksTheAdapter() {
        Exchange e = exchange("application/json", "");
        e.setProperty(GatewayExchange.REQUEST, new InferenceRequest("sql", null, "p", 1, false));
        new ResolveModelPool(gateway).process(e);
        assertThat(e.getProperty(GatewayExchange.MODEL_POOL, ModelPool.class).name()).isEqualTo("llama");
        assertThat(e.getProperty(GatewayExchange.REQUEST, InferenceRequest.class).adapter()).isEqualTo("sql");
    }

    @Test
    void unknownModelLeavesThePoolUnset() {
        Exchange e = exchange("application/json", "");
        e.setProperty(GatewayExchange.REQUEST, new InferenceRequest("gpt-9", null, "", 0, false));
        new ResolveModelPool(gateway).process(e);
        assertThat(e.getProperty(GatewayExchange.MODEL_POOL)).isNull();
    }

    @Test
    void pickerReturnsAnUpstreamUriAndCountsTheRequestInFlight() {
        Exchange e = exchange("application/json", "");
        e.setProperty(GatewayExchange.MODEL_POOL, gateway.pools().pool("llama"));
        e.setProperty(GatewayExchange.REQUEST, new InferenceRequest("llama", null, "p", 7, false));
        EndpointPicker picker = new EndpointPicker(gateway);
        String uri = picker.evaluate(e, String.class);
        Placement placement = e.getProperty(GatewayExchange.PLACEMENT, Placement.class);
        assertThat(uri).isEqualTo("upstream://" + placement.endpoint()); // Camel's normalized form
        assertThat(placement.endpoint()).isIn(Endpoint.parse("10.0.0.1:8000"), Endpoint.parse("10.0.0.2:8000"));
        // the dynamic to gets the endpoint itself, resolved once per pod
        Exchange again = exchange("application/json", "");
        again.setProperty(GatewayExchange.PLACEMENT, placement);
        Object upstream = picker.evaluate(again, Object.class);
        assertThat(upstream).isInstanceOf(UpstreamEndpoint.class).isSameAs(picker.evaluate(again, Object.class));
        assertThat(((UpstreamEndpoint) upstream).target()).isEqualTo(placement.endpoint());
        assertThat(gateway.inFlight().inFlight(placement.endpoint())).isEqualTo(1);
        placement.finish();
        assertThat(gateway.inFlight().inFlight(placement.endpoint())).isZero();
    }

    @Test
    void errorResponseRendersGatewayErrorsAndHidesOthers() throws Exception {
        Exchange e = exchange(null, "");
        e.setProperty(Exchange.EXCEPTION_CAUGHT, GatewayError.noEndpoint("llama"));
        new OpenAiErrorResponse().process(e);
        assertThat(e.getMessage().getHeader(Exchange.HTTP_RESPONSE_CODE)).isEqualTo(503);
        assertThat(new ObjectMapper().readTree(e.getMessage().getBody(byte[].class)).at("/error/code").asText())
                .isEqualTo("no_endpoint");

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
