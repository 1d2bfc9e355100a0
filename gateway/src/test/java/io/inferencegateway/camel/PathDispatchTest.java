package io.inferencegateway.camel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.camel.Endpoint;
import org.apache.camel.Exchange;
import org.junit.jupiter.api.Test;

import io.inferencegateway.domain.GatewayError;

/** The dispatch step on bare exchanges: the request gets its route, the route its path's parameters and endpoint. */
class PathDispatchTest {

    static final PathDispatch DISPATCH = new PathDispatch("""
            POST /v1/chat/completions  inference  operation=chat
            GET  /v1/models/{id...}    retrieve-model
            """);

    @Test
    void theRequestGetsItsRouteAndTheIngressItsDirectEndpoint() {
        Exchange e = ProcessorsTest.exchange("POST", "/v1/chat/completions", "application/json", "{}");
        DISPATCH.process(e);

        assertThat(GatewayExchange.request(e).route().operation()).isEqualTo("chat");
        Endpoint route = DISPATCH.evaluate(e, Endpoint.class);
        assertThat(route.getEndpointUri()).isEqualTo("direct://inference");
        // resolved once: the same endpoint for every request
        Exchange again = ProcessorsTest.exchange("POST", "/v1/chat/completions", "application/json", "{}");
        DISPATCH.process(again);
        assertThat(DISPATCH.evaluate(again, Endpoint.class)).isSameAs(route);
    }

    @Test
    void aPathParameterReachesTheRouteAsAHeader() {
        Exchange e = ProcessorsTest.exchange("GET", "/v1/models/meta-llama/Llama-3.1-8B", null, "");
        DISPATCH.process(e);

        assertThat(e.getMessage().getHeader("id")).isEqualTo("meta-llama/Llama-3.1-8B");
        assertThat(DISPATCH.evaluate(e, String.class)).isEqualTo("direct://retrieve-model");
    }

    @Test
    void aRefusalLeavesTheRequestWithoutARoute() {
        Exchange e = ProcessorsTest.exchange("GET", "/v1/chat/completions", null, "");

        assertThatThrownBy(() -> DISPATCH.process(e)).isInstanceOfSatisfying(GatewayError.class,
                g -> assertThat(g.headers()).containsEntry("Allow", "POST"));
        assertThat(GatewayExchange.request(e).route()).isNull();
    }
}
