package io.inferencegateway.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Date;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.errors.PermissionDeniedException;
import com.openai.errors.UnauthorizedException;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.sun.net.httpserver.HttpServer;

import io.inferencegateway.simulator.FleetOptions;
import io.inferencegateway.simulator.SimulatedFleet;
import io.inferencegateway.testing.GatewayHarness;

/**
 * spec.auth end to end (docs/auth.md): the real gateway in front of a simulated vLLM pod, called by the OpenAI SDK and
 * plain HTTP with API keys from a hashed key file and JWTs against a JWKS served by a local HTTP server.
 */
class AuthEndToEndTest {

    static final String MODEL = "meta-llama/Llama-3.1-8B-Instruct";
    static final String ISSUER = "https://login.example.test";
    static final String AUDIENCE = "inference-gateway";
    static final String KEY_A = "sk-team-a-0123456789abcdef0123456789abcdef";
    static final String KEY_B = "sk-team-b-fedcba9876543210fedcba9876543210";
    static final ObjectMapper JSON = new ObjectMapper();
    static final HttpClient HTTP = HttpClient.newHttpClient();

    static SimulatedFleet fleet;
    static GatewayHarness gateway;
    static Path keyFile;
    static HttpServer jwksServer;
    static RSAKey signingKey;
    static final AtomicReference<JWKSet> published = new AtomicReference<>();
    static String adapter;

    @BeforeAll
    static void start() throws Exception {
        fleet = SimulatedFleet.start(FleetOptions.builder().pods(1).loras(1).timeScale(50).model(MODEL).build());
        adapter = fleet.adapterNames().get(0);
        keyFile = Files.createTempFile("api-keys", ".txt");
        Files.writeString(keyFile, "# team A's key\n" + ApiKeys.line(KEY_A, "team-a") + ApiKeys.line(KEY_B, "team-b"));
        signingKey = new RSAKeyGenerator(2048).keyID("key-1").generate();
        published.set(new JWKSet(signingKey.toPublicJWK()));
        jwksServer = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        jwksServer.createContext("/jwks.json", exchange -> {
            byte[] body = published.get().toString().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        jwksServer.start();
        gateway = GatewayHarness.start(GatewayHarness.fleetConfig(fleet, MODEL) + """
                  auth:
                    apiKeys: {file: "%s"}
                    jwt:
                      jwksUrl: "http://127.0.0.1:%d/jwks.json"
                      issuer: "%s"
                      audience: "%s"
                      tenantClaim: org
                    protectUi: true
                  tenants:
                    - name: team-a
                      models: ["%s"]
                      adapters: []
                      priority: critical
                    - name: team-b
                """.formatted(keyFile, jwksServer.getAddress().getPort(), ISSUER, AUDIENCE, MODEL));
    }

    @AfterAll
    static void stop() throws Exception {
        gateway.close();
        fleet.close();
        jwksServer.stop(0);
    }

    static OpenAIClient client(String credential) {
        return OpenAIOkHttpClient.builder().baseUrl(gateway.baseUrl() + "/v1").apiKey(credential).maxRetries(0).build();
    }

    static ChatCompletion chat(String credential, String model) {
        return client(credential).chat().completions().create(ChatCompletionCreateParams.builder().model(model)
                .addUserMessage("hello").maxCompletionTokens(3L).build());
    }

    static HttpResponse<String> get(String path, String authorization) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(gateway.baseUrl() + path));
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    static HttpResponse<String> post(String authorization, String model) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/v1/chat/completions"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"" + model
                        + "\",\"max_tokens\":2,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}"));
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    static JsonNode error(HttpResponse<String> r) throws Exception {
        return JSON.readTree(r.body()).path("error");
    }

    static String token(UnaryOperator<JWTClaimsSet.Builder> edit) throws Exception {
        return token(signingKey, edit);
    }

    static String token(RSAKey key, UnaryOperator<JWTClaimsSet.Builder> edit) throws Exception {
        long now = System.currentTimeMillis();
        JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder().issuer(ISSUER).audience(AUDIENCE).subject("alice")
                .claim("org", "team-b").issueTime(new Date(now)).expirationTime(new Date(now + 600_000));
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(key.getKeyID()).build(),
                edit.apply(claims).build());
        jwt.sign(new RSASSASigner(key));
        return jwt.serialize();
    }

    // ---- API keys ----------------------------------------------------------------------------------------------

    @Test
    void aListedApiKeyReachesTheModel() {
        ChatCompletion c = chat(KEY_A, MODEL);
        assertThat(c.choices()).isNotEmpty();
    }

    @Test
    void noCredentialsIsA401InTheOpenAiShapeWithWwwAuthenticate() throws Exception {
        HttpResponse<String> r = post(null, MODEL);
        assertThat(r.statusCode()).isEqualTo(401);
        assertThat(r.headers().firstValue("www-authenticate")).hasValue("Bearer");
        assertThat(error(r).path("code").asText()).isEqualTo("invalid_api_key");
        assertThat(error(r).path("type").asText()).isEqualTo("invalid_request_error");
    }

    @Test
    void anUnknownKeyIsRefusedAndNeverEchoed() throws Exception {
        HttpResponse<String> r = post("Bearer sk-not-a-key-of-ours", MODEL);
        assertThat(r.statusCode()).isEqualTo(401);
        assertThat(r.body()).doesNotContain("sk-not-a-key-of-ours");
        assertThat(error(r).path("message").asText()).isEqualTo("Incorrect API key provided");
    }

    @Test
    void theOpenAiSdkSeesA401AsUnauthorized() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> chat("sk-wrong", MODEL))
                .isInstanceOf(UnauthorizedException.class);
    }

    @Test
    void aKeyRotatedInTheFileTakesEffectWithoutRestart() throws Exception {
        String rotated = "sk-team-a-rotated-00000000000000000000000000";
        String before = Files.readString(keyFile);
        try {
            Files.writeString(keyFile, before + ApiKeys.line(rotated, "team-a"));
            await().atMost(Duration.ofSeconds(20)).until(() -> post("Bearer " + rotated, MODEL).statusCode() == 200);
            // and a key taken out of the file stops working
            Files.writeString(keyFile, ApiKeys.line(KEY_A, "team-a") + ApiKeys.line(rotated, "team-a"));
            await().atMost(Duration.ofSeconds(20)).until(() -> post("Bearer " + KEY_B, MODEL).statusCode() == 401);
            assertThat(post("Bearer " + rotated, MODEL).statusCode()).isEqualTo(200);
        } finally {
            Files.writeString(keyFile, before);
            await().atMost(Duration.ofSeconds(20)).until(() -> post("Bearer " + KEY_B, MODEL).statusCode() == 200);
        }
    }

    // ---- open and protected paths ------------------------------------------------------------------------------

    @Test
    void healthReadyAndMetricsStayOpenWhileTheUiNeedsCredentials() throws Exception {
        assertThat(get("/health", null).statusCode()).isEqualTo(200);
        assertThat(get("/ready", null).statusCode()).isEqualTo(200);
        assertThat(get("/metrics", null).statusCode()).isEqualTo(200);
        assertThat(get("/ui", null).statusCode()).isEqualTo(401);
        assertThat(get("/ui", "Bearer " + KEY_A).statusCode()).isEqualTo(200);
        assertThat(get("/v1/models", null).statusCode()).isEqualTo(401);
    }

    // ---- tenants -----------------------------------------------------------------------------------------------

    @Test
    void modelListsAreFilteredPerTenant() throws Exception {
        assertThat(ids(get("/v1/models", "Bearer " + KEY_A))).containsExactly(MODEL);
        assertThat(ids(get("/v1/models", "Bearer " + KEY_B))).containsExactlyInAnyOrder(MODEL, adapter);
        assertThat(get("/v1/models/" + adapter, "Bearer " + KEY_A).statusCode()).isEqualTo(404);
        assertThat(get("/v1/models/" + adapter, "Bearer " + KEY_B).statusCode()).isEqualTo(200);
    }

    static List<String> ids(HttpResponse<String> r) throws Exception {
        assertThat(r.statusCode()).isEqualTo(200);
        return JSON.readTree(r.body()).path("data").findValuesAsText("id");
    }

    @Test
    void aModelOutsideTheTenantsListIsA403() throws Exception {
        HttpResponse<String> r = post("Bearer " + KEY_A, adapter);
        assertThat(r.statusCode()).isEqualTo(403);
        assertThat(error(r).path("code").asText()).isEqualTo("model_not_allowed");
        assertThat(error(r).path("param").asText()).isEqualTo("model");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> chat(KEY_A, adapter))
                .isInstanceOf(PermissionDeniedException.class);
        assertThat(chat(KEY_B, adapter).choices()).isNotEmpty();
    }

    // ---- JWT ---------------------------------------------------------------------------------------------------

    @Test
    void aValidJwtNamesItsTenantByTheConfiguredClaim() throws Exception {
        assertThat(chat(token(c -> c), adapter).choices()).isNotEmpty(); // team-b may use the adapter
        assertThat(post("Bearer " + token(c -> c.claim("org", "team-a")), adapter).statusCode()).isEqualTo(403);
    }

    record BadToken(String name, UnaryOperator<JWTClaimsSet.Builder> edit, String code) {
        @Override
        public String toString() {
            return name;
        }
    }

    static List<BadToken> badTokens() {
        long now = System.currentTimeMillis();
        return List.of(
                new BadToken("expired", c -> c.expirationTime(new Date(now - 120_000)), "invalid_api_key"),
                new BadToken("not valid yet", c -> c.notBeforeTime(new Date(now + 300_000)), "invalid_api_key"),
                new BadToken("another issuer", c -> c.issuer("https://evil.example.test"), "invalid_api_key"),
                new BadToken("another audience", c -> c.audience("someone-else"), "invalid_api_key"),
                new BadToken("no tenant claim", c -> c.claim("org", null), "invalid_api_key"),
                new BadToken("no expiry", c -> c.expirationTime(null), "invalid_api_key"),
                new BadToken("a tenant not configured", c -> c.claim("org", "team-z"), "tenant_not_allowed"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badTokens")
    void aJwtThatDoesNotProveATenantIsRefused(BadToken bad) throws Exception {
        HttpResponse<String> r = post("Bearer " + token(bad.edit()), MODEL);
        assertThat(r.statusCode()).isEqualTo(bad.code().equals("tenant_not_allowed") ? 403 : 401);
        assertThat(error(r).path("code").asText()).isEqualTo(bad.code());
    }

    @Test
    void aJwtSignedByAnotherKeyUnderTheSameKidIsRefused() throws Exception {
        RSAKey impostor = new RSAKeyGenerator(2048).keyID(signingKey.getKeyID()).generate();
        HttpResponse<String> r = post("Bearer " + token(impostor, c -> c), MODEL);
        assertThat(r.statusCode()).isEqualTo(401);
    }

    @Test
    void aRotatedJwksIsFetchedOnTheFirstTokenOfTheNewKey() throws Exception {
        RSAKey next = new RSAKeyGenerator(2048).keyID("key-2").generate();
        String tokenOfNextKey = token(next, c -> c);
        assertThat(post("Bearer " + tokenOfNextKey, MODEL).statusCode()).isEqualTo(401); // not published yet
        published.set(new JWKSet(List.of(signingKey.toPublicJWK(), next.toPublicJWK())));
        // an unknown kid refetches the set, at most once a second
        await().atMost(Duration.ofSeconds(20)).until(() -> post("Bearer " + tokenOfNextKey, MODEL).statusCode() == 200);
        assertThat(post("Bearer " + token(c -> c), MODEL).statusCode()).isEqualTo(200);
    }
}
