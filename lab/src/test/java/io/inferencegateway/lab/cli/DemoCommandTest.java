package io.inferencegateway.lab.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionCreateParams;

import io.inferencegateway.config.ConfigLoader;
import io.inferencegateway.config.GatewayConfig;
import io.inferencegateway.config.Policy;
import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.metrics.EndpointMetrics;
import io.inferencegateway.simulator.FleetOptions;
import io.inferencegateway.simulator.MetricsDialect;
import io.inferencegateway.simulator.SimulatedPod;
import io.inferencegateway.testing.GatewayHarness;
import picocli.CommandLine;

class DemoCommandTest {

    static final HttpClient HTTP = HttpClient.newHttpClient();

    @ParameterizedTest(name = "{0}")
    @EnumSource(MetricsDialect.class)
    void demoConfigIsValidUsesThePluginPolicyAndTheEnginesMetricNames(MetricsDialect engine) throws Exception {
        GatewayConfig c = ConfigLoader.parse(DemoCommand.config(engine, List.of("127.0.0.1:9001", "127.0.0.1:9002"),
                List.of("a-lora-0", "a-lora-1")));
        assertThat(c.pools()).singleElement().satisfies(p -> {
            assertThat(p.policy()).isEqualTo(Policy.GPU_AWARE);
            assertThat(p.endpoints()).hasSize(2);
            assertThat(p.loraAdapters()).containsExactly("a-lora-0", "a-lora-1");
            assertThat(p.engine()).isEqualTo(engine.cliName());
        });
    }

    @Test
    void llamaCppPodsHaveFourSlotsAndNoAdapters() {
        FleetOptions options = DemoCommand.fleetOptions(MetricsDialect.LLAMACPP, 4, 1);
        assertThat(options.maxNumSeqs()).isEqualTo(DemoCommand.LLAMACPP_SLOTS);
        assertThat(options.adapterNames()).isEmpty();
        assertThat(DemoCommand.fleetOptions(MetricsDialect.VLLM, 4, 1).adapterNames()).hasSize(4);
    }

    @Test
    void aGlobalDemoNeedsTwoClustersAtLeast() {
        CommandLine cli = InferenceGatewayCli.commandLine();
        StringWriter err = new StringWriter();
        cli.setErr(new PrintWriter(err));
        assertThat(cli.execute("demo", "--clusters=1", "--port=0")).isEqualTo(InferenceGatewayCli.EXIT_USAGE);
        assertThat(err.toString()).contains("--clusters must be at least 2");
    }

    @Test
    void aGlobalDemosFartherRegionsAreSlowerToReachAndCheaper() {
        assertThat(GlobalDemo.region(0).oneWayDelay()).isEqualTo(Duration.ofMillis(5));
        assertThat(GlobalDemo.region(1).oneWayDelay()).isEqualTo(Duration.ofMillis(40));
        assertThat(GlobalDemo.region(2).oneWayDelay()).isEqualTo(Duration.ofMillis(80));
        assertThat(GlobalDemo.region(1).inputPrice()).isLessThan(GlobalDemo.region(0).inputPrice());
        assertThat(GlobalDemo.region(5).region()).isEqualTo("region-6");
    }

    @Test
    void watchingRoutesNeedsADirectoryOfThem(@TempDir Path empty) {
        CommandLine cli = InferenceGatewayCli.commandLine();
        StringWriter err = new StringWriter();
        cli.setErr(new PrintWriter(err));
        assertThat(cli.execute("demo", "--watch-routes", "--port=0")).isEqualTo(InferenceGatewayCli.EXIT_USAGE);
        assertThat(cli.execute("demo", "--routes=" + empty, "--port=0")).isEqualTo(InferenceGatewayCli.EXIT_USAGE);
        assertThat(err.toString()).contains("--watch-routes needs --routes DIR", "holds no route file");
    }

    @Test
    void anUnknownEngineIsAUsageError() {
        CommandLine cli = InferenceGatewayCli.commandLine();
        StringWriter err = new StringWriter();
        cli.setErr(new PrintWriter(err));
        assertThat(cli.execute("demo", "--engine=ollama", "--port=0")).isEqualTo(InferenceGatewayCli.EXIT_USAGE);
        assertThat(err.toString()).contains("unknown engine 'ollama'", "llamacpp");
    }

    /**
     * {@code demo --engine llamacpp}: an OpenAI SDK chat through the gateway is answered, and once one pod's four
     * slots are busy and five requests are deferred, the gateway's metrics (what its scheduler reads) say so and
     * the gateway sends nothing more to that pod.
     */
    @Test
    void llamaCppDemoAnswersChatAndRoutesAroundAPodWithDeferredRequests() throws Exception {
        try (DemoCommand.Demo demo = DemoCommand.Demo.start(MetricsDialect.LLAMACPP, 2, 10,
                GatewayHarness.freePort())) {
            OpenAIClient client = OpenAIOkHttpClient.builder().baseUrl(demo.baseUrl() + "/v1").apiKey("unused")
                    .maxRetries(0).build();
            ChatCompletion hello = chat(client, "Hello!");
            assertThat(hello.model()).isEqualTo(DemoCommand.MODEL);
            assertThat(hello.choices().get(0).message().content()).hasValueSatisfying(t -> assertThat(t).isNotBlank());

            SimulatedPod busy = demo.fleet().pod(0);
            for (int i = 0; i < DemoCommand.LLAMACPP_SLOTS + 5; i++) {
                HTTP.sendAsync(HttpRequest.newBuilder(URI.create(busy.baseUrl() + "/v1/chat/completions"))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"" + DemoCommand.MODEL
                                + "\",\"max_tokens\":20000,\"messages\":[{\"role\":\"user\",\"content\":\"long "
                                + i + "\"}]}")).build(), HttpResponse.BodyHandlers.discarding());
            }
            await().atMost(Duration.ofSeconds(15)).until(() -> busy.running() == 4 && busy.waiting() == 5);
            Endpoint busyEndpoint = new Endpoint(busy.host(), busy.port());
            await().atMost(Duration.ofSeconds(15)).until(() -> {
                EndpointMetrics seen = demo.gateway().gateway().metrics().latest(busyEndpoint);
                return seen != null && seen.running() == 4 && seen.waiting() == 5;
            });
            assertThat(demo.gateway().gateway().metrics().latest(busyEndpoint).kvUsage()).isNaN();

            long before = busy.requestsReceived();
            for (int i = 0; i < 6; i++) {
                assertThat(chat(client, "question " + i).choices()).hasSize(1);
            }
            assertThat(busy.requestsReceived() - before).as("requests sent to the pod with deferred requests")
                    .isZero();
        }
    }

    private static ChatCompletion chat(OpenAIClient client, String text) {
        return client.chat().completions().create(ChatCompletionCreateParams.builder().model(DemoCommand.MODEL)
                .addUserMessage(text).maxCompletionTokens(8).build());
    }
}
