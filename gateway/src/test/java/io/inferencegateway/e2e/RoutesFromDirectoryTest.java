package io.inferencegateway.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;

import org.apache.camel.support.RouteWatcherReloadStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.models.chat.completions.ChatCompletionCreateParams;

import io.inferencegateway.camel.GatewayServer;
import io.inferencegateway.camel.ServeCommand;
import io.inferencegateway.simulator.FleetOptions;
import io.inferencegateway.simulator.SimulatedFleet;
import io.inferencegateway.testing.GatewayHarness;

/**
 * {@code serve --routes DIR --watch-routes}: the gateway runs the route files of a directory a user edits, and a saved
 * edit takes effect while it runs; an edit that does not load changes nothing.
 */
class RoutesFromDirectoryTest {

    static final String MODEL = "meta-llama/Llama-3.1-8B-Instruct";
    static final HttpClient HTTP = HttpClient.newHttpClient();

    @TempDir
    Path dir;

    /** A copy of the repository's routes/, as a user starts from. */
    void copyTheGatewaysRoutes() throws IOException {
        try (Stream<Path> files = Files.list(Path.of("..", "routes"))) {
            for (Path f : files.toList()) {
                Files.copy(f, dir.resolve(f.getFileName()));
            }
        }
    }

    @Test
    void anEditedRouteTakesEffectWithoutARestartAndABrokenEditChangesNothing() throws Exception {
        copyTheGatewaysRoutes();
        try (SimulatedFleet fleet = SimulatedFleet.start(FleetOptions.builder().model(MODEL).pods(1).timeScale(10)
                .build());
                GatewayHarness gateway = GatewayHarness.start(GatewayHarness.fleetConfig(fleet, MODEL),
                        new GatewayServer.Routes(dir, true))) {
            assertThat(get(gateway, "/health")).isEqualTo("{\"status\":\"ok\"}");

            Path health = dir.resolve("health.camel.yaml");
            Files.writeString(health, Files.readString(health).replace("'{\"status\":\"ok\"}'",
                    "'{\"status\":\"ok\",\"edition\":2}'"));
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                    .until(() -> get(gateway, "/health").contains("\"edition\":2"));

            RouteWatcherReloadStrategy reload = gateway.server().camelContext()
                    .hasService(RouteWatcherReloadStrategy.class);
            // the step docs/architecture.md adds ("Change the pipeline"), on the request path
            Path inference = dir.resolve("inference.camel.yaml");
            String resolve = "        - process:\n            ref: resolveModelPool\n";
            assertThat(Files.readString(inference)).contains(resolve);
            long reloaded = reload.getReloadCounter();
            Files.writeString(inference, Files.readString(inference).replace(resolve, resolve
                    + "        - log:\n            id: log-model\n"
                    + "            message: \"model ${exchangeProperty.gatewayRequest.model()}\"\n"));
            await().atMost(Duration.ofSeconds(30)).until(() -> reload.getReloadCounter() > reloaded);
            assertThat(gateway.server().camelContext().getProcessor("log-model")).isNotNull();
            OpenAIClient client = OpenAIOkHttpClient.builder().baseUrl(gateway.baseUrl() + "/v1").apiKey("unused")
                    .maxRetries(0).build();
            assertThat(chat(client)).isEqualTo(1);

            long failedBefore = reload.getFailedCounter();
            Files.writeString(health, Files.readString(health).replace("setBody:", "setBodyy:"));
            await().atMost(Duration.ofSeconds(30)).until(() -> reload.getFailedCounter() > failedBefore);
            assertThat(reload.getLastError()).hasMessageContaining("setBodyy").hasMessageContaining("line 10");

            assertThat(get(gateway, "/health")).as("the last edit that loaded").contains("\"edition\":2");
            assertThat(chat(client)).isEqualTo(1);

            // parses, but its route cannot be created: Camel has removed the running one by then
            long failedNext = reload.getFailedCounter();
            Files.writeString(health, Files.readString(health).replace("setBodyy:", "process:\n            ref: noSuchBean\n"
                    + "        - setBody:"));
            await().atMost(Duration.ofSeconds(30)).until(() -> reload.getFailedCounter() > failedNext);
            assertThat(reload.getLastError()).hasMessageContaining("noSuchBean");
            assertThat(get(gateway, "/health")).as("the last edit that loaded, again").contains("\"edition\":2");
        }
    }

    @Test
    void aDirectoryWithoutRouteFilesOrAWatchWithoutADirectoryIsAUsageError() {
        assertThatThrownBy(() -> ServeCommand.routes(dir, false)).hasMessageContaining("holds no route file");
        assertThatThrownBy(() -> ServeCommand.routes(null, true)).hasMessageContaining("--watch-routes needs --routes");
        assertThat(ServeCommand.routes(null, false)).isEqualTo(GatewayServer.Routes.JAR);
    }

    static int chat(OpenAIClient client) {
        return client.chat().completions().create(ChatCompletionCreateParams.builder().model(MODEL)
                .addUserMessage("still served?").maxCompletionTokens(4).build()).choices().size();
    }

    static String get(GatewayHarness gateway, String path) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + path)).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }
}
