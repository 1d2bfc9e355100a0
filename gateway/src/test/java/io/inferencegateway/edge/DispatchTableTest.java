package io.inferencegateway.edge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import io.inferencegateway.config.AccessConfig;
import io.inferencegateway.domain.GatewayError;
import io.inferencegateway.openai.OpenAiErrors;
import io.inferencegateway.request.IngressRoute;
import io.inferencegateway.request.IngressRoute.AuthRule;
import io.inferencegateway.testing.ProjectFiles;

/** The ingress's dispatch table: which route a request goes to and what that route is, or which 404/405 it gets. */
class DispatchTableTest {

    static final DispatchTable TABLE = new DispatchTable("""
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
        DispatchTable.Match match = TABLE.dispatch(method, path);
        assertThat(match.route().id()).isEqualTo(route);
        if (param == null) {
            assertThat(match.names()).isNull();
            // an exact path costs no allocation: the same match every time
            assertThat(TABLE.dispatch(method, path)).isSameAs(match);
        } else {
            int i = Arrays.asList(match.names()).indexOf(param);
            assertThat(match.values()[i]).isEqualTo(value);
        }
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
        assertThatThrownBy(() -> TABLE.dispatch(method, path)).isInstanceOfSatisfying(GatewayError.class, g -> {
            assertThat(OpenAiErrors.status(g)).isEqualTo(status);
            assertThat(OpenAiErrors.shape(g.reason()).code()).isEqualTo(code);
            assertThat(g.headers().get("Allow")).isEqualTo(allow);
        });
    }

    @Test
    void aLineSaysWhatItsRouteIs() {
        DispatchTable table = new DispatchTable("""
                POST /v1/chat/completions  inference  operation=chat  streamUsage=true
                POST /v1/rerank            inference
                GET  /health               liveness   auth=none  drain=answer
                GET  /metrics              gateway-metrics  auth=metrics  drain=answer
                GET  /ui                   fleet-page  auth=ui
                """);

        assertThat(table.dispatch("POST", "/v1/chat/completions").route())
                .isEqualTo(new IngressRoute("inference", AuthRule.REQUIRED, false, "chat", true));
        assertThat(table.dispatch("POST", "/v1/rerank").route()).isEqualTo(IngressRoute.of("inference"));
        assertThat(table.dispatch("GET", "/health").route())
                .isEqualTo(new IngressRoute("liveness", AuthRule.NONE, true, null, false));
        assertThat(table.dispatch("GET", "/metrics").route().auth()).isEqualTo(AuthRule.METRICS);
        assertThat(table.dispatch("GET", "/ui").route().auth()).isEqualTo(AuthRule.UI);
        assertThat(table.routeIds()).containsExactly("inference", "liveness", "gateway-metrics", "fleet-page");
    }

    @Test
    void withoutAClusterTokenTheCapacitySummaryIsProtectedLikeMetrics() {
        AccessConfig protecting = new AccessConfig(true, Path.of("keys"), null, true, false);
        AccessConfig open = new AccessConfig(true, Path.of("keys"), null, false, false);

        assertThat(AuthRule.CLUSTER.required(protecting)).isTrue();
        assertThat(AuthRule.CLUSTER.required(open)).isFalse();
    }

    static Stream<Arguments> badTables() {
        return Stream.of(
                Arguments.of("a line without its route", "GET /v1/models", "line 1 'GET /v1/models'"),
                Arguments.of("a lower-case method", "get /v1/models list-models", "expected METHOD /path route-id"),
                Arguments.of("a path ending in /", "GET /v1/models/ list-models", "expected METHOD /path route-id"),
                Arguments.of("a half {name} segment", "GET /v1/models/x{id} m", "expected METHOD /path route-id"),
                Arguments.of("a {name...} segment before another", "GET /v1/{id...}/x r", "a {name...} one last"),
                Arguments.of("the same method and path twice", "GET /a r\nGET /a s", "line 2 'GET /a s': GET /a is already"),
                Arguments.of("nothing but comments", "# none", "the dispatch table is empty"),
                Arguments.of("an unknown option", "GET /a r open", "unknown option 'open'"),
                Arguments.of("an unknown auth", "GET /a r auth=maybe", "auth must be required, none, metrics, ui or cluster"),
                Arguments.of("an unknown drain", "GET /a r drain=later", "drain must be refuse or answer"),
                Arguments.of("a bad operation name", "GET /a r operation=Chat!", "operation must be a name"),
                Arguments.of("a bad streamUsage", "GET /a r streamUsage=yes", "streamUsage must be true or false"),
                Arguments.of("an option twice", "GET /a r auth=none auth=ui", "option auth is given twice"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badTables")
    void aBadTableFailsAtStartWithItsLine(String scenario, String table, String message) {
        assertThatThrownBy(() -> new DispatchTable(table)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(message);
    }

    /** The table the gateway ships (routes/gateway-beans.camel.yaml). */
    static DispatchTable shipped() throws IOException {
        ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
        for (JsonNode bean : yaml.readTree(ProjectFiles.of("routes/gateway-beans.camel.yaml").toFile()).at("/0/beans")) {
            if (bean.path("name").asText().equals("pathDispatch")) {
                return new DispatchTable(bean.at("/constructors/0").asText());
            }
        }
        throw new AssertionError("no pathDispatch bean in routes/gateway-beans.camel.yaml");
    }

    @Test
    void everyRouteInTheGatewaysTableIsADirectRouteOfRoutesFolder() throws IOException {
        DispatchTable table = shipped();
        String allRoutes;
        try (Stream<Path> files = Files.list(ProjectFiles.of("routes"))) {
            StringBuilder sb = new StringBuilder();
            for (Path f : files.toList()) {
                sb.append(Files.readString(f));
            }
            allRoutes = sb.toString();
        }

        assertThat(table.routeIds()).isNotEmpty()
                .allSatisfy(route -> assertThat(allRoutes).contains("uri: direct:" + route));
    }

    @Test
    void theGatewaysTableKeepsTheProbesOpenAndAnsweredWhileDraining() throws IOException {
        DispatchTable table = shipped();

        for (String probe : List.of("/health", "/ready")) {
            assertThat(table.dispatch("GET", probe).route()).satisfies(r -> {
                assertThat(r.auth()).isEqualTo(AuthRule.NONE);
                assertThat(r.answeredWhileDraining()).isTrue();
            });
        }
        assertThat(table.dispatch("GET", "/metrics").route().auth()).isEqualTo(AuthRule.METRICS);
        assertThat(table.dispatch("GET", "/ui").route().auth()).isEqualTo(AuthRule.UI);
        assertThat(table.dispatch("GET", "/capacity").route()).satisfies(r -> {
            assertThat(r.auth()).isEqualTo(AuthRule.CLUSTER);
            assertThat(r.answeredWhileDraining()).isTrue();
        });
        assertThat(table.dispatch("POST", "/v1/chat/completions").route())
                .isEqualTo(new IngressRoute("inference", AuthRule.REQUIRED, false, "chat", true));
        assertThat(table.dispatch("POST", "/v1/completions").route().operation()).isEqualTo("text_completion");
        assertThat(table.dispatch("POST", "/v1/embeddings").route().streamUsage()).isFalse();
    }
}
