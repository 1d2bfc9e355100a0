package io.inferencegateway.lab.regions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.List;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.errors.OpenAIIoException;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import io.inferencegateway.lab.regions.DelayProxy.CutMode;

/**
 * One region, end to end through the OpenAI Java SDK: its gateway in its namespace answers from its simulated pods
 * through the delayed link; killed it answers nothing, restarted it answers again; a blackholed link makes the
 * client time out, a reset link refuses it, a restored link carries requests again; and after close the namespace
 * and its processes are gone. Needs root (CI runs as root); skipped elsewhere. The tests run in order on one region,
 * to start it once.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RegionIT {

    static final String MODEL = "meta-llama/Llama-3.1-8B-Instruct";
    static final Duration DELAY = Duration.ofMillis(40);

    static Region region;
    static OpenAIClient client;

    @BeforeAll
    static void start() throws Exception {
        assumeTrue(RegionNamespace.available(), "network namespaces need root");
        region = Region.start(RegionSpec.of("it-east", 241).withPods(2).withModel(MODEL, 1).withLinkDelay(DELAY));
        System.out.printf("region %s up in %d ms%n", region.name(), region.startupTime().toMillis());
        client = client(Duration.ofSeconds(30));
    }

    @AfterAll
    static void stop() {
        if (region != null) {
            region.close();
        }
    }

    @Test
    @Order(1)
    void aCompletionThroughTheLinkComesFromTheRegionsPods() {
        long start = System.nanoTime();
        ChatCompletion completion = client.chat().completions().create(ChatCompletionCreateParams.builder()
                .model(MODEL).addUserMessage("hello from the host").maxCompletionTokens(5L).build());
        long millis = (System.nanoTime() - start) / 1_000_000;

        assertThat(completion.choices()).hasSize(1);
        assertThat(completion.choices().get(0).message().content()).hasValueSatisfying(t -> assertThat(t).isNotBlank());
        assertThat(completion.usage()).hasValueSatisfying(u -> assertThat(u.completionTokens()).isEqualTo(5));
        assertThat(millis).as("ms: a fresh connection over a 40 ms link").isGreaterThanOrEqualTo(4 * DELAY.toMillis());
        assertThat(region.link().connectionsAccepted()).isPositive();
        assertThat(region.link().bytesToTarget()).isPositive();
        assertThat(region.link().bytesToClient()).isPositive();
    }

    @Test
    @Order(2)
    void anAdapterOfThePodsIsServedToo() {
        ChatCompletion completion = client.chat().completions().create(ChatCompletionCreateParams.builder()
                .model("llama-3.1-8b-instruct-lora-0").addUserMessage("hi").maxCompletionTokens(3L).build());
        assertThat(completion.usage()).hasValueSatisfying(u -> assertThat(u.completionTokens()).isEqualTo(3));
    }

    @Test
    @Order(3)
    void aKilledGatewayAnswersNothingAndARestartedOneAnswersAgain() throws Exception {
        region.killGateway();
        assertThat(region.gateway().isAlive()).isFalse();
        assertThatThrownBy(() -> complete(client(Duration.ofSeconds(10)))).isInstanceOf(OpenAIIoException.class);

        Duration restart = region.restartGateway();
        System.out.printf("gateway of %s restarted in %d ms%n", region.name(), restart.toMillis());

        assertThat(complete(client)).isEqualTo(2);
    }

    @Test
    @Order(4)
    void aBlackholedLinkTimesTheClientOutAndARestoredOneCarriesRequestsAgain() {
        region.cutLink(CutMode.BLACKHOLE);
        OpenAIClient impatient = client(Duration.ofSeconds(1));
        long start = System.nanoTime();
        assertThatThrownBy(() -> complete(impatient)).isInstanceOf(OpenAIIoException.class)
                .hasCauseInstanceOf(InterruptedIOException.class); // a read or call timeout, not a reset
        assertThat((System.nanoTime() - start) / 1_000_000).as("ms: it waited for its timeout")
                .isGreaterThanOrEqualTo(1_000);

        region.restoreLink();

        assertThat(complete(client)).isEqualTo(2);
    }

    @Test
    @Order(5)
    void aResetLinkRefusesAtOnceAndARestoredOneCarriesRequestsAgain() {
        region.cutLink(CutMode.RESET);
        long start = System.nanoTime();
        assertThatThrownBy(() -> complete(client(Duration.ofSeconds(30)))).isInstanceOf(OpenAIIoException.class);
        assertThat((System.nanoTime() - start) / 1_000_000).as("ms: refused, not timed out").isLessThan(10_000);

        region.restoreLink();

        assertThat(complete(client)).isEqualTo(2);
    }

    @Test
    @Order(6)
    void aSlowerLinkMakesEveryRoundTripSlower() {
        complete(client); // a kept-alive connection
        region.slowLink(Duration.ofMillis(150));
        long start = System.nanoTime();
        complete(client);
        assertThat((System.nanoTime() - start) / 1_000_000).isGreaterThanOrEqualTo(300);
        region.slowLink(DELAY);
    }

    @Test
    @Order(7)
    void afterCloseTheNamespaceAndItsProcessesAreGone() throws Exception {
        List<RegionProcess> processes = region.namespace().processes();
        InetSocketAddress link = region.gatewayAddress();

        region.close();

        assertThat(processes).allSatisfy(p -> assertThat(p.isAlive()).as(p.toString()).isFalse());
        assertThat(RegionNamespace.namespaces()).doesNotContain("igw-it-east");
        try (Socket s = new Socket()) {
            assertThatThrownBy(() -> s.connect(link, 1_000)).isInstanceOf(IOException.class);
        }
        region = null;
    }

    static OpenAIClient client(Duration timeout) {
        return OpenAIOkHttpClient.builder().baseUrl(region.baseUrl() + "/v1").apiKey("unused").maxRetries(0)
                .timeout(timeout).build();
    }

    /** One short chat completion; the tokens it generated. */
    static long complete(OpenAIClient c) {
        return c.chat().completions().create(ChatCompletionCreateParams.builder().model(MODEL)
                .addUserMessage("ping").maxCompletionTokens(2L).build()).usage().orElseThrow().completionTokens();
    }
}
