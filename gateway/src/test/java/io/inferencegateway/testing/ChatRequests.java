package io.inferencegateway.testing;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.CompletableFuture;

/** Raw OpenAI chat requests for the end-to-end tests that steer pods by hand (straight to a pod, or through a gateway). */
public final class ChatRequests {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private ChatRequests() {
    }

    /** A chat body with one user message; {@code text} must need no JSON escaping. */
    public static String chat(String model, String text, int maxTokens) {
        return "{\"model\":\"" + model + "\",\"max_tokens\":" + maxTokens
                + ",\"messages\":[{\"role\":\"user\",\"content\":\"" + text + "\"}]}";
    }

    /** A two-token chat body with a system prompt, for prefix affinity. */
    public static String chatWithSystem(String model, String system, String question) {
        return "{\"model\":\"" + model + "\",\"max_tokens\":2,\"messages\":[{\"role\":\"system\",\"content\":\""
                + system + "\"},{\"role\":\"user\",\"content\":\"" + question + "\"}]}";
    }

    /** Posts {@code body} to {@code baseUrl}'s chat completions and waits for the whole answer. */
    public static HttpResponse<String> send(String baseUrl, String body) throws Exception {
        return HTTP.send(post(baseUrl, body), HttpResponse.BodyHandlers.ofString());
    }

    /** Posts {@code body} without waiting (to keep a pod busy). */
    public static CompletableFuture<HttpResponse<Void>> sendAsync(String baseUrl, String body) {
        return HTTP.sendAsync(post(baseUrl, body), HttpResponse.BodyHandlers.discarding());
    }

    private static HttpRequest post(String baseUrl, String body) {
        return HttpRequest.newBuilder(URI.create(baseUrl + "/v1/chat/completions"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build();
    }
}
