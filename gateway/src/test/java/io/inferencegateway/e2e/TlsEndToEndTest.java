package io.inferencegateway.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import javax.net.ssl.SSLContext;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.http.StreamResponse;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;

import io.inferencegateway.testing.GatewayHarness;
import io.inferencegateway.testing.TestPki;
import io.inferencegateway.testing.TestUpstream;

/**
 * HTTPS on both sides of the gateway. Upstream: with {@code camel.component.upstream.tlsCaFile} the gateway calls its
 * model servers over TLS, and one it cannot verify is answered with the OpenAI-shaped "could not be reached" error at
 * once, its connection closed. Listener: with {@code gateway.tls.certFile} and {@code gateway.tls.keyFile} the official
 * OpenAI SDK streams a chat over HTTPS; with {@code gateway.tls.clientCaFile} a client without a certificate is
 * refused and one with a certificate from that CA served.
 */
class TlsEndToEndTest {

    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @TempDir
    static Path dir;
    static TestPki pki;
    static TestUpstream trusted;
    static TestUpstream untrusted;
    static TestUpstream plain;
    static GatewayHarness upstreamTls;
    static GatewayHarness listenerTls;
    static GatewayHarness mutualTls;

    @BeforeAll
    static void start() throws Exception {
        pki = TestPki.create(dir);
        // both TLS stubs also answer plain HTTP on their port: the gateway's scrape of their /metrics stays plain
        trusted = new TestUpstream(pki.serverContext(pki.server(), false))
                .behave(new TestUpstream.Json(200, "{\"ok\":true}"));
        untrusted = new TestUpstream(pki.serverContext(pki.untrustedServer(), false))
                .behave(new TestUpstream.Json(200, "{\"ok\":true}"));
        plain = new TestUpstream().behave(new TestUpstream.ChatSse("m", 3, 5));
        upstreamTls = GatewayHarness.start("""
                kind: InferenceGatewayConfig
                spec:
                  schedulers:
                    - {name: good, modelName: good, policy: round-robin, endpoints: ["%s"]}
                    - {name: bad, modelName: bad, policy: round-robin, endpoints: ["%s"]}
                """.formatted(trusted.address(), untrusted.address()),
                // one I/O thread: upstream connections are pooled per loop, and the reuse below is on one loop
                Map.of("camel.component.upstream.tlsCaFile", pki.caFile().toString(), "gateway.ioThreads", "1"));
        listenerTls = GatewayHarness.start(GatewayHarness.config("m", "round-robin", plain.address()), Map.of(
                "gateway.tls.certFile", pki.server().cert().toString(),
                "gateway.tls.keyFile", pki.server().key().toString()));
        mutualTls = GatewayHarness.start(GatewayHarness.config("m", "round-robin", plain.address()), Map.of(
                "gateway.tls.certFile", pki.server().cert().toString(),
                "gateway.tls.keyFile", pki.server().key().toString(),
                "gateway.tls.clientCaFile", pki.caFile().toString()));
    }

    @AfterAll
    static void stop() throws Exception {
        for (AutoCloseable c : new AutoCloseable[] {upstreamTls, listenerTls, mutualTls, trusted, untrusted, plain}) {
            c.close();
        }
    }

    @Test
    void aModelServerTheCaVouchesForIsCalledOverTls() throws Exception {
        int before = trusted.tlsConnections();
        HttpResponse<String> r = post(upstreamTls.baseUrl(), "good");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).isEqualTo("{\"ok\":true}");
        assertThat(trusted.tlsConnections()).isEqualTo(before + 1);
        assertThat(post(upstreamTls.baseUrl(), "good").statusCode()).isEqualTo(200);
        assertThat(trusted.tlsConnections()).as("the second request reused the TLS connection").isEqualTo(before + 1);
    }

    @Test
    void aModelServerTheCaDoesNotVouchForGetsTheClientAnOpenAiErrorAtOnce() throws Exception {
        long start = System.nanoTime();
        HttpResponse<String> r = post(upstreamTls.baseUrl(), "bad");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).as("no hang").isLessThan(Duration.ofSeconds(3));
        assertThat(r.statusCode()).isEqualTo(502);
        assertThat(r.body()).contains("\"error\"").contains("upstream_unavailable").contains("could not be reached");
        assertThat(untrusted.received()).as("the request never reached it").isEmpty();
    }

    @Test
    void theOpenAiSdkStreamsAChatFromTheGatewayOverHttps() throws Exception {
        OpenAIClient client = sdk(listenerTls, pki.jdkClientContext(false));
        assertThat(streamedChat(client)).containsExactly("t0 ", "t1 ", "t2 ");
    }

    @Test
    void theListenerSpeaksNoPlainHttpOnceTlsIsOn() {
        assertThatThrownBy(() -> post("http://127.0.0.1:" + listenerTls.port(), "m")).isInstanceOf(Exception.class);
    }

    @Test
    void withClientCasSetAClientWithoutACertificateIsRefusedAndOneWithACertificateIsServed() throws Exception {
        assertThatThrownBy(() -> streamedChat(sdk(mutualTls, pki.jdkClientContext(false))))
                .as("no client certificate").isInstanceOf(Exception.class);
        assertThat(streamedChat(sdk(mutualTls, pki.jdkClientContext(true)))).containsExactly("t0 ", "t1 ", "t2 ");
    }

    private static OpenAIClient sdk(GatewayHarness gateway, SSLContext tls) {
        return OpenAIOkHttpClient.builder().baseUrl("https://localhost:" + gateway.port() + "/v1").apiKey("unused")
                .maxRetries(0).timeout(Duration.ofSeconds(10))
                .sslSocketFactory(tls.getSocketFactory()).trustManager(pki.trustManager()).build();
    }

    private static List<String> streamedChat(OpenAIClient client) {
        List<String> deltas = new ArrayList<>();
        try (StreamResponse<ChatCompletionChunk> stream = client.chat().completions().createStreaming(
                ChatCompletionCreateParams.builder().model("m").addUserMessage("count").build())) {
            stream.stream().forEach(chunk -> chunk.choices()
                    .forEach(c -> c.delta().content().filter(t -> !t.isEmpty()).ifPresent(deltas::add)));
        }
        return deltas;
    }

    private static HttpResponse<String> post(String baseUrl, String model) throws Exception {
        return HTTP.send(
                HttpRequest.newBuilder(URI.create(baseUrl + "/v1/completions")).timeout(Duration.ofSeconds(10))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"" + model + "\",\"prompt\":\"hi\"}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
