package io.inferencegateway.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.inferencegateway.config.TargetConfig;
import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.Price;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaders;

class UpstreamRequestsTest {

    private static final String MODEL = "meta-llama/Llama-3.1-8B-Instruct";
    private static final TargetConfig PROVIDER = new TargetConfig("overflow-ai", TargetConfig.Kind.PROVIDER,
            new Endpoint("api.overflow.example.com", 443), true, "/v1", "us-east-1", Price.FREE, null,
            Map.of(MODEL, "llama-3.1-8b"));
    private static final TargetConfig CLUSTER = new TargetConfig("eu-west", TargetConfig.Kind.CLUSTER,
            new Endpoint("10.0.0.7", 8080), false, "", "eu-west-1", Price.FREE, null, Map.of());

    private static HttpHeaders clientHeaders() {
        return new DefaultHttpHeaders().set("Authorization", "Bearer client-key").set("x-gateway-priority", "critical")
                .set("Host", "gateway.example.com");
    }

    private static ByteBuf body(String json) {
        return Unpooled.copiedBuffer(json, StandardCharsets.UTF_8);
    }

    @Test
    void aProviderGetsItsNameForTheModelItsKeyAndItsHost() {
        ByteBuf client = body("{\"messages\":[{\"role\":\"user\",\"content\":\"hi \\\"model\\\"\"}],\"model\":\""
                + MODEL.replace("/", "\\/") + "\",\"stream\":true}");
        FullHttpRequest r = UpstreamRequests.forTarget("POST", "/v1/chat/completions", clientHeaders(),
                client.retainedDuplicate(), PROVIDER, "provider-key", MODEL, 1, null);
        try {
            assertThat(r.uri()).isEqualTo("/v1/chat/completions");
            assertThat(r.content().toString(StandardCharsets.UTF_8)).isEqualTo(
                    "{\"messages\":[{\"role\":\"user\",\"content\":\"hi \\\"model\\\"\"}],\"model\":\"llama-3.1-8b\","
                            + "\"stream\":true}");
            assertThat(r.headers().get("Authorization")).isEqualTo("Bearer provider-key");
            assertThat(r.headers().get("Host")).isEqualTo("api.overflow.example.com");
            assertThat(r.headers().contains("x-gateway-priority")).isFalse();
            assertThat(r.headers().getInt("Content-Length")).isEqualTo(r.content().readableBytes());
        } finally {
            r.release();
        }
        assertThat(client.refCnt()).as("the client's buffer is shared, then given back").isEqualTo(1);
        client.release();
    }

    @Test
    void aClusterGetsTheClientsRequestWithThePriorityTheTierResolved() {
        String json = "{\"model\":\"" + MODEL + "\",\"messages\":[]}";
        FullHttpRequest r = UpstreamRequests.forTarget("POST", "/v1/chat/completions", clientHeaders(), body(json),
                CLUSTER, null, MODEL, -1, null);
        try {
            assertThat(r.content().toString(StandardCharsets.UTF_8)).isEqualTo(json);
            assertThat(r.headers().get("Authorization")).isEqualTo("Bearer client-key");
            assertThat(r.headers().get("x-gateway-priority")).isEqualTo("-1");
            assertThat(r.headers().get("Host")).isEqualTo("10.0.0.7:8080");
        } finally {
            r.release();
        }
    }

    @Test
    void aBodyWithoutAJsonModelGoesAsItIs() {
        String multipart = "--b\r\nContent-Disposition: form-data; name=\"model\"\r\n\r\n" + MODEL + "\r\n--b--\r\n";
        FullHttpRequest r = UpstreamRequests.forTarget("POST", "/v1/audio/transcriptions", clientHeaders(),
                body(multipart), PROVIDER, null, MODEL, 0, null);
        try {
            assertThat(r.content().toString(StandardCharsets.UTF_8)).isEqualTo(multipart);
            assertThat(r.headers().get("Authorization")).as("no key configured: the client's goes")
                    .isEqualTo("Bearer client-key");
        } finally {
            r.release();
        }
    }
}
