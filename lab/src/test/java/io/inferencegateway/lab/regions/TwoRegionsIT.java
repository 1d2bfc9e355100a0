package io.inferencegateway.lab.regions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.errors.OpenAIIoException;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.inferencegateway.lab.regions.DelayProxy.CutMode;

/**
 * Two regions started side by side, as the global tier's suite will run them: each link has its own delay and its own
 * cuts, and a region's namespace reaches another region only through that region's link. Needs root (CI runs as
 * root); skipped elsewhere.
 */
class TwoRegionsIT {

    static final String MODEL = "meta-llama/Llama-3.1-8B-Instruct";

    static Region east;
    static Region west;

    @BeforeAll
    static void start() throws Exception {
        assumeTrue(RegionNamespace.available(), "network namespaces need root");
        long began = System.nanoTime();
        List<Region> regions = Region.startAll(List.of(
                RegionSpec.of("it-east2", 242).withPods(1).withLinkDelay(Duration.ofMillis(10)),
                RegionSpec.of("it-west2", 243).withPods(1).withLinkDelay(Duration.ofMillis(60))
                        .withLinkListenHost("0.0.0.0")));
        east = regions.get(0);
        west = regions.get(1);
        System.out.printf("two regions up in %d ms (east %d ms, west %d ms)%n", (System.nanoTime() - began) / 1_000_000,
                east.startupTime().toMillis(), west.startupTime().toMillis());
    }

    @AfterAll
    static void stop() {
        for (Region r : new Region[] {east, west}) {
            if (r != null) {
                r.close();
            }
        }
    }

    @Test
    void eachLinkHasItsOwnDelayAndItsOwnCut() {
        OpenAIClient toWest = client(west);
        OpenAIClient toEast = client(east);
        complete(toWest); // the connection is kept alive from here on
        long start = System.nanoTime();
        complete(toWest);
        assertThat((System.nanoTime() - start) / 1_000_000).as("ms over west's 60 ms link").isGreaterThanOrEqualTo(120);

        west.cutLink(CutMode.RESET);
        try {
            assertThatThrownBy(() -> complete(toWest)).isInstanceOf(OpenAIIoException.class);
            assertThat(complete(toEast)).as("east is not cut").isEqualTo(2);
        } finally {
            west.restoreLink();
        }
        assertThat(complete(toWest)).isEqualTo(2);
    }

    @Test
    void aRegionReachesAnotherOnlyThroughThatRegionsLink() throws Exception {
        InetSocketAddress westLink = west.gatewayAddressFrom(east.namespace());
        long accepted = west.link().connectionsAccepted();

        assertThat(connectsFrom(east, westLink)).as("west's link, at east's host address").isTrue();
        await().until(() -> west.link().connectionsAccepted() == accepted + 1);
        assertThat(connectsFrom(east, west.gatewayAddressInside())).as("west's gateway, around its link").isFalse();
        assertThat(connectsFrom(east, west.gatewayAddress())).as("the host's loopback").isFalse();
        assertThatThrownBy(() -> east.gatewayAddressFrom(west.namespace()))
                .as("east's link listens on the host's loopback only").isInstanceOf(IllegalStateException.class);
    }

    /** A TCP connect from inside {@code region}'s namespace, with bash's /dev/tcp (no JVM to start). */
    static boolean connectsFrom(Region region, InetSocketAddress to) throws Exception {
        Process p = new ProcessBuilder("ip", "netns", "exec", region.namespace().name(), "timeout", "5", "bash", "-c",
                "exec 3<>/dev/tcp/" + to.getAddress().getHostAddress() + "/" + to.getPort())
                .redirectErrorStream(true).start();
        assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
        return p.exitValue() == 0;
    }

    static OpenAIClient client(Region region) {
        return OpenAIOkHttpClient.builder().baseUrl(region.baseUrl() + "/v1").apiKey("unused").maxRetries(0)
                .timeout(Duration.ofSeconds(30)).build();
    }

    static long complete(OpenAIClient c) {
        return c.chat().completions().create(ChatCompletionCreateParams.builder().model(MODEL)
                .addUserMessage("ping").maxCompletionTokens(2L).build()).usage().orElseThrow().completionTokens();
    }
}
