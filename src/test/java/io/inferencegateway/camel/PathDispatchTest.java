package io.inferencegateway.camel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.apache.camel.Endpoint;
import org.apache.camel.Exchange;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.support.DefaultExchange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import io.inferencegateway.domain.GatewayError;
import io.inferencegateway.openai.OpenAiErrors;

/** The ingress's dispatch table on bare exchanges: which route a request goes to, or which 404/405 it gets. */
class PathDispatchTest {

    static final DefaultCamelContext CAMEL = new DefaultCamelContext();
    static final PathDispatch DISPATCH = new PathDispatch("""
            # inference
            POST /v1/chat/completions  inference
            POST /v1/responses         inference

            GET  /v1/models            list-models
            GET  /v1/models/{id}       retrieve-model
            GET  /v1/files             list-files
            POST /v1/files             upload-file
            GET  /v1/files/{fileId}/content  file-content
            GET  /v2/models/{id...}    retrieve-any
            """);

    static Exchange request(String method, String path) {
        Exchange e = new DefaultExchange(CAMEL);
        e.getMessage().setHeader(Exchange.HTTP_METHOD, method);
        e.getMessage().setHeader(Exchange.HTTP_PATH, path);
        return e;
    }

    static Stream<Arguments> served() {
        return Stream.of(
                Arguments.of("an inference path", "POST", "/v1/chat/completions", "inference", null, null),
                Arguments.of("a second path to the same route", "POST", "/v1/responses", "inference", null, null),
                Arguments.of("a GET path", "GET", "/v1/models", "list-models", null, null),
                Arguments.of("a {name} segment", "GET", "/v1/models/llama-3-8b", "retrieve-model", "id", "llama-3-8b"),
                Arguments.of("a {name} segment between fixed ones", "GET", "/v1/files/f-1/content", "file-content",
                        "fileId", "f-1"),
                Arguments.of("a {name...} segment takes the rest, slashes and all", "GET",
                        "/v2/models/meta-llama/Llama-3.1-8B-Instruct", "retrieve-any", "id", "meta-llama/Llama-3.1-8B-Instruct"),
                Arguments.of("a {name...} segment of one segment", "GET", "/v2/models/m", "retrieve-any", "id", "m"),
                Arguments.of("one path, two methods: GET", "GET", "/v1/files", "list-files", null, null),
                Arguments.of("one path, two methods: POST", "POST", "/v1/files", "upload-file", null, null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("served")
    void aListedPathAndMethodGoToTheirRoute(String scenario, String method, String path, String route,
            String param, String value) {
        Exchange e = request(method, path);
        DISPATCH.process(e);
        assertThat(e.getProperty(GatewayExchange.ROUTE)).isEqualTo(route);
        // the endpoint the ingress's dynamic to sends to: that route's direct: one, the same for every request
        assertThat(e.getProperty(GatewayExchange.ROUTE_ENDPOINT, Endpoint.class).getEndpointUri())
                .isEqualTo("direct://" + route);
        Exchange again = request(method, path);
        DISPATCH.process(again);
        assertThat(again.getProperty(GatewayExchange.ROUTE_ENDPOINT)).isSameAs(e.getProperty(GatewayExchange.ROUTE_ENDPOINT));
        if (param != null) {
            assertThat(e.getMessage().getHeader(param)).isEqualTo(value);
        }
        assertThat(e.getMessage().getHeader("Allow")).isNull();
    }

    static Stream<Arguments> refused() {
        return Stream.of(
                Arguments.of("GET on a POST path", "GET", "/v1/chat/completions", 405, "method_not_allowed", "POST"),
                Arguments.of("HEAD on a GET path", "HEAD", "/v1/models", 405, "method_not_allowed", "GET"),
                Arguments.of("a method a two-method path lacks", "DELETE", "/v1/files", 405, "method_not_allowed",
                        "GET, POST"),
                Arguments.of("a wrong method on a {name} path", "DELETE", "/v1/models/x", 405, "method_not_allowed",
                        "GET"),
                Arguments.of("an unknown path", "GET", "/v2/whatever", 404, "unknown_url", null),
                Arguments.of("a trailing slash", "GET", "/v1/models/", 404, "unknown_url", null),
                Arguments.of("a {name} segment cannot span two", "GET", "/v1/models/a/b", 404, "unknown_url", null),
                Arguments.of("a prefix of a listed path", "POST", "/v1/chat", 404, "unknown_url", null),
                Arguments.of("a {name...} segment cannot be empty", "GET", "/v2/models/", 404, "unknown_url", null),
                Arguments.of("the root", "GET", "/", 404, "unknown_url", null));
    }

    @ParameterizedTest(name = "{0} -> {3}")
    @MethodSource("refused")
    void otherRequestsGetAnOpenAiError(String scenario, String method, String path, int status, String code,
            String allow) {
        Exchange e = request(method, path);
        assertThatThrownBy(() -> DISPATCH.process(e)).isInstanceOfSatisfying(GatewayError.class, g -> {
            assertThat(OpenAiErrors.status(g)).isEqualTo(status);
            assertThat(OpenAiErrors.shape(g.reason()).code()).isEqualTo(code);
        });
        assertThat(e.getMessage().getHeader("Allow")).isEqualTo(allow);
        assertThat(e.getProperty(GatewayExchange.ROUTE)).isNull();
    }

    static Stream<Arguments> badTables() {
        return Stream.of(
                Arguments.of("a line without its route", "GET /v1/models", "line 1 'GET /v1/models'"),
                Arguments.of("a lower-case method", "get /v1/models list-models", "expected METHOD /path route-id"),
                Arguments.of("a path ending in /", "GET /v1/models/ list-models", "expected METHOD /path route-id"),
                Arguments.of("a half {name} segment", "GET /v1/models/x{id} m", "expected METHOD /path route-id"),
                Arguments.of("a {name...} segment before another", "GET /v1/{id...}/x r", "a {name...} one last"),
                Arguments.of("the same method and path twice", "GET /a r\nGET /a s", "line 2 'GET /a s': GET /a is already"),
                Arguments.of("nothing but comments", "# none", "the dispatch table is empty"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badTables")
    void aBadTableFailsAtStartWithItsLine(String scenario, String table, String message) {
        assertThatThrownBy(() -> new PathDispatch(table)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(message);
    }

    @Test
    void everyRouteInTheGatewaysTableIsADirectRouteOfRoutesFolder() throws IOException {
        ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
        String table = null;
        for (JsonNode bean : yaml.readTree(Path.of("routes/gateway-beans.camel.yaml").toFile()).at("/0/beans")) {
            if (bean.path("name").asText().equals("pathDispatch")) {
                table = bean.at("/constructors/0").asText();
            }
        }
        assertThat(table).as("pathDispatch's table").isNotNull();
        new PathDispatch(table); // parses
        List<String> routes = new ArrayList<>();
        for (String line : table.strip().split("\n")) {
            routes.add(line.strip().split("\\s+")[2]);
        }
        String allRoutes;
        try (Stream<Path> files = Files.list(Path.of("routes"))) {
            StringBuilder sb = new StringBuilder();
            for (Path f : files.toList()) {
                sb.append(Files.readString(f));
            }
            allRoutes = sb.toString();
        }

        assertThat(routes).isNotEmpty().allSatisfy(route -> assertThat(allRoutes).contains("uri: direct:" + route));
    }
}
