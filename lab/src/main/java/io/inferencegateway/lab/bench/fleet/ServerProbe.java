package io.inferencegateway.lab.bench.fleet;

import java.io.IOException;
import java.io.PrintStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * What the bench checks before it sends anything to servers a user runs: that every one answers (its
 * {@code GET /v1/models}, else its {@code GET /health}), which model they serve when {@code --model} does not say,
 * and whether their Prometheus text is the engine's (a server without metrics, or a wrong {@code --engine}, leaves the
 * gateway blind to its queue: a warning, not an error, since round-robin does not need it).
 */
public final class ServerProbe {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient client;
    private final Duration timeout;

    public ServerProbe(Duration timeout) {
        this.client = HttpClient.newBuilder().connectTimeout(timeout).version(HttpClient.Version.HTTP_1_1).build();
        this.timeout = timeout;
    }

    /**
     * Probes every server, then returns the model to bench: {@code model} when given, else the first model the first
     * server lists.
     *
     * @param model {@code --model}, null when not given
     * @param log   where warnings go
     * @throws IOException              naming every server that did not answer, and how
     * @throws IllegalArgumentException when no model was given and the first server names none
     */
    public String check(ExternalServers servers, String model, PrintStream log) throws IOException,
            InterruptedException {
        List<String> unreachable = new ArrayList<>();
        List<List<String>> served = new ArrayList<>();
        for (InetSocketAddress endpoint : servers.endpoints()) {
            String name = ExternalServers.name(endpoint);
            Answer models = get(endpoint, "/v1/models");
            if (models.status() == 200) {
                served.add(modelIds(models.body()));
            } else {
                Answer health = get(endpoint, "/health");
                if (health.status() != 200) {
                    unreachable.add(name + " (" + models.describe("/v1/models") + "; " + health.describe("/health")
                            + ")");
                    continue;
                }
                served.add(List.of());
            }
            Answer metrics = get(endpoint, servers.engine().metricsPath());
            if (metrics.status() != 200) {
                log.println("warning: " + name + ": " + metrics.describe(servers.engine().metricsPath())
                        + metricsHint(servers.engine()) + "; the gateway will not see its queue, so gpu-aware routes "
                        + "it blind");
            } else if (!servers.engine().recognises(metrics.body())) {
                log.println("warning: " + name + ": " + servers.engine().metricsPath() + " has none of "
                        + servers.engine().displayName() + "'s queue series; is --engine " + servers.engine().label()
                        + " right? The gateway reads the metric names of the engine it is told");
            }
        }
        if (!unreachable.isEmpty()) {
            throw new IOException("cannot reach " + unreachable.size() + " of " + servers.endpoints().size()
                    + " servers: " + String.join(", ", unreachable) + ". Start them, or leave them out of --endpoints");
        }
        String chosen = model;
        if (chosen == null) {
            if (served.get(0).isEmpty()) {
                throw new IllegalArgumentException(servers.names().get(0) + " names no model in GET /v1/models; "
                        + "give the model the servers serve with --model");
            }
            chosen = served.get(0).get(0);
            log.println("model: " + chosen + " (the first that " + servers.names().get(0) + " lists in /v1/models)");
        }
        for (int i = 0; i < served.size(); i++) {
            if (!served.get(i).isEmpty() && !served.get(i).contains(chosen)) {
                log.println("warning: " + servers.names().get(i) + " lists " + served.get(i) + " in /v1/models, not "
                        + chosen + "; the bench asks every server for " + chosen);
            }
        }
        return chosen;
    }

    private static String metricsHint(ServerEngine engine) {
        return engine == ServerEngine.LLAMACPP ? " (llama-server publishes metrics only when started with --metrics)"
                : engine == ServerEngine.TRTLLM ? " (trtllm-serve publishes them only with return_perf_metrics)" : "";
    }

    /** The ids under {@code data} of an OpenAI model list, in order; none when the body is not one. */
    static List<String> modelIds(String body) {
        List<String> ids = new ArrayList<>();
        try {
            for (JsonNode model : JSON.readTree(body).path("data")) {
                if (model.path("id").isTextual()) {
                    ids.add(model.get("id").asText());
                }
            }
        } catch (IOException notJson) {
            // a server that answers 200 with something else still answers
        }
        return ids;
    }

    private Answer get(InetSocketAddress endpoint, String path) throws InterruptedException {
        URI uri = URI.create("http://" + ExternalServers.name(endpoint) + path);
        try {
            HttpResponse<String> response = client.send(java.net.http.HttpRequest.newBuilder(uri).timeout(timeout)
                    .GET().build(), HttpResponse.BodyHandlers.ofString());
            return new Answer(response.statusCode(), response.body(), "");
        } catch (ConnectException e) {
            return new Answer(0, "", "connection refused");
        } catch (HttpTimeoutException e) {
            return new Answer(0, "", "no answer within " + timeout.toMillis() + " ms");
        } catch (IOException e) {
            return new Answer(0, "", e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
        }
    }

    /** One GET: the status (0 when none came), the body, and what went wrong when nothing came. */
    private record Answer(int status, String body, String failure) {

        String describe(String path) {
            return status == 0 ? path + ": " + failure
                    : path + " answered " + status + (status == 503 ? " (still loading the model?)" : "");
        }
    }
}
