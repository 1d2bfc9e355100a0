package io.inferencegateway.lab.bench.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The checks before a bench on a user's servers: every one answers, the model, the engine's metrics. */
class ServerProbeTest {

    private static final String MODELS =
            "{\"object\":\"list\",\"data\":[{\"id\":\"qwen2.5-0.5b\",\"object\":\"model\"}]}";
    private static final String METRICS = "llamacpp:requests_processing 0\nllamacpp:requests_deferred 0\n";

    private final ByteArrayOutputStream logged = new ByteArrayOutputStream();
    private final PrintStream log = new PrintStream(logged, true, StandardCharsets.UTF_8);
    private final ServerProbe probe = new ServerProbe(Duration.ofSeconds(2));
    private FakeModelServer a;
    private FakeModelServer b;

    @AfterEach
    void stop() {
        for (FakeModelServer s : new FakeModelServer[] {a, b}) {
            if (s != null) {
                s.close();
            }
        }
    }

    private ExternalServers servers(ServerEngine engine, FakeModelServer... fakes) {
        return new ExternalServers(engine, java.util.Arrays.stream(fakes).map(FakeModelServer::address).toList());
    }

    private String logged() {
        return logged.toString(StandardCharsets.UTF_8);
    }

    @Test
    void theModelIsTheFirstTheFirstServerListsAndAServerWithHealthOnlyAnswersToo() throws Exception {
        a = new FakeModelServer().answer("/v1/models", 200, MODELS).answer("/metrics", 200, METRICS);
        b = new FakeModelServer().answer("/health", 200, "{\"status\":\"ok\"}").answer("/metrics", 200, METRICS);

        assertThat(probe.check(servers(ServerEngine.LLAMACPP, a, b), null, log)).isEqualTo("qwen2.5-0.5b");
        assertThat(logged()).contains("model: qwen2.5-0.5b (the first that 127.0.0.1:" + a.address().getPort()
                + " lists in /v1/models)").doesNotContain("warning");
    }

    @Test
    void aGivenModelWinsAndAServerListingAnotherIsWarnedOf() throws Exception {
        a = new FakeModelServer().answer("/v1/models", 200, MODELS).answer("/metrics", 200, METRICS);

        assertThat(probe.check(servers(ServerEngine.LLAMACPP, a), "my-model", log)).isEqualTo("my-model");
        assertThat(logged()).contains("lists [qwen2.5-0.5b] in /v1/models, not my-model");
    }

    @Test
    void aServerWithoutMetricsOrWithAnotherEnginesIsAWarningNotAnError() throws Exception {
        a = new FakeModelServer().answer("/v1/models", 200, MODELS).answer("/metrics", 501, "");
        b = new FakeModelServer().answer("/v1/models", 200, MODELS).answer("/metrics", 200, METRICS);

        assertThat(probe.check(servers(ServerEngine.LLAMACPP, a, b), null, log)).isEqualTo("qwen2.5-0.5b");
        assertThat(probe.check(servers(ServerEngine.VLLM, b), null, log)).isEqualTo("qwen2.5-0.5b");
        assertThat(logged()).contains("/metrics answered 501 (llama-server publishes metrics only when started "
                + "with --metrics)").contains("/metrics has none of vLLM's queue series; is --engine vllm right?");
    }

    @Test
    void serversThatDoNotAnswerAreAllNamedWithWhatTheyAnswered() throws Exception {
        a = new FakeModelServer().answer("/v1/models", 503, "").answer("/health", 503, "");
        b = new FakeModelServer().answer("/v1/models", 200, MODELS).answer("/metrics", 200, METRICS);
        int gone = io.inferencegateway.lab.bench.gateway.GatewayProcess.freePort();
        ExternalServers servers = new ExternalServers(ServerEngine.LLAMACPP, List.of(a.address(), b.address(),
                new java.net.InetSocketAddress("127.0.0.1", gone)));

        assertThatThrownBy(() -> probe.check(servers, null, log)).isInstanceOf(IOException.class)
                .hasMessage("cannot reach 2 of 3 servers: 127.0.0.1:" + a.address().getPort() + " (/v1/models answered "
                        + "503 (still loading the model?); /health answered 503 (still loading the model?)), 127.0.0.1:"
                        + gone + " (/v1/models: connection refused; /health: connection refused). Start them, or leave "
                        + "them out of --endpoints");
    }

    @Test
    void withoutAModelListedOrGivenTheUserIsAskedForOne() throws Exception {
        a = new FakeModelServer().answer("/health", 200, "").answer("/metrics", 200, METRICS);

        assertThatThrownBy(() -> probe.check(servers(ServerEngine.LLAMACPP, a), null, log))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("names no model in GET /v1/models; give the model the servers serve with "
                        + "--model");
    }
}
