package io.inferencegateway.testing;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.awaitility.core.ConditionTimeoutException;

/**
 * Debian's {@code chromium}, headless, driven over the Chrome DevTools Protocol from one page's WebSocket (the JDK's
 * client): navigate, evaluate JavaScript, watch the network. Listens on loopback only, with a profile of its own in a
 * temporary directory. {@link #close()} kills the browser and every process it started, and a shutdown hook does so
 * too should the test JVM end first.
 */
public final class HeadlessChromium implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final Process process;
    private final Path profile;
    private final Path log;
    private final Thread reaper;
    private final WebSocket socket;
    private final AtomicInteger ids = new AtomicInteger();
    private final Map<Integer, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
    private final List<Consumer<JsonNode>> eventListeners = new CopyOnWriteArrayList<>();

    private HeadlessChromium(Process process, Path profile, Path log, Thread reaper, String pageSocketUrl)
            throws Exception {
        this.process = process;
        this.profile = profile;
        this.log = log;
        this.reaper = reaper;
        this.socket = HttpClient.newHttpClient().newWebSocketBuilder()
                .buildAsync(URI.create(pageSocketUrl), new Messages()).get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    }

    /** The {@code chromium} on PATH, or a failure that says which Debian package to install. */
    public static String executable() {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
            Path p = Path.of(dir, "chromium");
            if (Files.isExecutable(p)) {
                return p.toString();
            }
        }
        throw new IllegalStateException("chromium not found on PATH: install the Debian package 'chromium' "
                + "(tools/provision.sh does)");
    }

    /** Starts the browser on a blank page and connects to that page. */
    public static HeadlessChromium start() throws Exception {
        Path profile = Files.createTempDirectory("chromium-profile");
        Path log = Files.createTempFile("chromium", ".log");
        Process process = new ProcessBuilder(executable(), "--headless=new",
                // the sandbox cannot start as root or in most containers; the browser only loads the test's own
                // gateway on loopback
                "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                "--no-default-browser-check", "--disable-extensions", "--disable-background-networking",
                "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0", "--user-data-dir=" + profile,
                "--window-size=1400,1000", "about:blank")
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        Thread reaper = new Thread(() -> kill(process), "chromium-reaper");
        Runtime.getRuntime().addShutdownHook(reaper);
        try {
            int port = devToolsPort(process, profile, log);
            return new HeadlessChromium(process, profile, log, reaper, pageSocketUrl(port));
        } catch (Exception | Error e) {
            kill(process);
            Runtime.getRuntime().removeShutdownHook(reaper);
            deleteTree(profile);
            throw e;
        }
    }

    /** Chromium writes the port it bound to into {@code DevToolsActivePort} in its profile once it listens. */
    private static int devToolsPort(Process process, Path profile, Path log) throws Exception {
        Path file = profile.resolve("DevToolsActivePort");
        try {
            return await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(50)).until(() -> {
                if (!process.isAlive()) {
                    throw new IllegalStateException("chromium exited with " + process.exitValue() + ":\n"
                            + Files.readString(log));
                }
                List<String> lines = Files.exists(file) ? Files.readAllLines(file) : List.of();
                return lines.size() >= 2 ? Integer.valueOf(lines.get(0).strip()) : null;
            }, port -> port != null);
        } catch (ConditionTimeoutException e) {
            throw new IllegalStateException("chromium did not open its DevTools port within " + TIMEOUT + ":\n"
                    + Files.readString(log));
        }
    }

    private static String pageSocketUrl(int port) throws Exception {
        HttpResponse<String> targets = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/json/list")).timeout(TIMEOUT).build(),
                HttpResponse.BodyHandlers.ofString());
        for (JsonNode target : JSON.readTree(targets.body())) {
            if (target.path("type").asText().equals("page")) {
                return target.path("webSocketDebuggerUrl").asText();
            }
        }
        throw new IllegalStateException("chromium has no page to drive: " + targets.body());
    }

    // ---- the protocol -------------------------------------------------------------------------------

    /** Sends one command and waits for its result; a protocol error is thrown. */
    public JsonNode call(String method, Map<String, ?> params) throws Exception {
        return callAsync(method, params).get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    }

    /** Sends one command; never blocks, so event listeners may use it. */
    public CompletableFuture<JsonNode> callAsync(String method, Map<String, ?> params) {
        int id = ids.incrementAndGet();
        CompletableFuture<JsonNode> result = new CompletableFuture<>();
        pending.put(id, result);
        ObjectNode message = JSON.createObjectNode().put("id", id).put("method", method);
        message.set("params", JSON.valueToTree(params));
        synchronized (socket) { // one text message at a time
            socket.sendText(message.toString(), true).join();
        }
        return result;
    }

    /** Called with every event the browser sends ({@code method} and {@code params}), on the socket's thread. */
    public void onEvent(Consumer<JsonNode> listener) {
        eventListeners.add(listener);
    }

    public void navigate(String url) throws Exception {
        call("Page.navigate", Map.of("url", url));
    }

    /** Evaluates {@code expression} in the page (awaiting a promise) and returns its value as JSON. */
    public JsonNode evaluate(String expression) throws Exception {
        JsonNode result = call("Runtime.evaluate", Map.of("expression", expression, "returnByValue", true,
                "awaitPromise", true));
        if (result.has("exceptionDetails")) {
            throw new IllegalStateException("page threw: " + result.get("exceptionDetails"));
        }
        return result.path("result").path("value");
    }

    private final class Messages implements WebSocket.Listener {
        private final StringBuilder text = new StringBuilder();

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            text.append(data);
            if (last) {
                String message = text.toString();
                text.setLength(0);
                dispatch(message);
            }
            webSocket.request(1);
            return null;
        }

        @Override
        public void onError(WebSocket webSocket, Throwable error) {
            pending.values().forEach(f -> f.completeExceptionally(error));
        }

        private void dispatch(String message) {
            JsonNode node;
            try {
                node = JSON.readTree(message);
            } catch (IOException e) {
                return;
            }
            if (node.has("id")) {
                CompletableFuture<JsonNode> f = pending.remove(node.get("id").asInt());
                if (f != null) {
                    if (node.has("error")) {
                        f.completeExceptionally(new IllegalStateException("DevTools: " + node.get("error")));
                    } else {
                        f.complete(node.path("result"));
                    }
                }
            } else {
                eventListeners.forEach(l -> l.accept(node));
            }
        }
    }

    /** What the browser printed, for a failing test's message. */
    public String log() throws IOException {
        return Files.readString(log, StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws IOException {
        socket.abort();
        kill(process);
        try {
            Runtime.getRuntime().removeShutdownHook(reaper);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs anyway, and finds the browser dead
        }
        deleteTree(profile);
        Files.deleteIfExists(log);
    }

    /**
     * Kills the browser first (so that it cannot start another child), then every process it had started (renderer,
     * GPU, zygote: listed while the browser lives, since an orphan is no one's descendant), and waits for them.
     */
    private static void kill(Process process) {
        List<ProcessHandle> family = process.descendants().toList();
        process.destroyForcibly();
        family.forEach(ProcessHandle::destroyForcibly);
        try {
            process.waitFor(10, TimeUnit.SECONDS);
            for (ProcessHandle p : family) {
                p.onExit().get(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            // a child that will not die within 10 s after SIGKILL: nothing more a test can do
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
