package io.inferencegateway.tokenize;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import com.fasterxml.jackson.databind.JsonNode;
import io.inferencegateway.config.PoolConfig;
import io.inferencegateway.config.TokenizerConfig;
import io.inferencegateway.domain.Endpoint;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tokenizers of the pools that name one ({@code spec.schedulers[].tokenizer}): the model's files, loaded once per
 * distinct config and shared by the pools that name the same files, or the engine of a pod of the pool, asked. A
 * reload loads the new files before anything changes, so that files it cannot read refuse it; tokenizers no pool names
 * any more are closed at the next reload (a request tokenizes right after its pool is resolved, long before that) or
 * when the gateway closes.
 *
 * <p>Thread-safe: requests read the current map; {@link #apply} is called by one thread at a time.
 */
public final class PoolTokenizers implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(PoolTokenizers.class);

    /** Requests waiting for a tokenizer thread at most; past that one keeps its estimate. */
    static final int QUEUE = 1024;

    private final TokenizeMeters meters;
    private volatile Map<TokenizerConfig, PromptTokenizer> loaded = Map.of();
    private final List<PromptTokenizer> retired = new ArrayList<>();
    private final Map<String, TokenizeMeters.Pool> poolMeters = new ConcurrentHashMap<>();
    private volatile Map<String, TokenizerConfig> configs = Map.of();

    private final ThreadPoolExecutor workers;
    private final ExecutorService engineResponses;
    private volatile EngineTokenizer engine; // made when a pool first asks its engine (its HTTP client has a thread)

    /**
     * @param meters  the tokenizers' meters
     * @param threads the threads that tokenize, off the event loops (a long prompt's first tokenization takes tens of
     *                milliseconds); requests beyond {@link #QUEUE} waiting for one keep the estimate
     */
    public PoolTokenizers(TokenizeMeters meters, int threads) {
        this.meters = meters;
        this.workers = new ThreadPoolExecutor(threads, threads, 0, TimeUnit.MILLISECONDS,
                new ArrayBlockingQueue<>(QUEUE), daemons("prompt-tokenizer-"));
        // the HTTP client's own two threads for the engines' answers (a full queue above must not refuse its tasks)
        this.engineResponses = Executors.newFixedThreadPool(2, daemons("tokenize-engine-"));
    }

    private static ThreadFactory daemons(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    /**
     * Loads the tokenizers {@code pools} name that are not loaded yet, and retires the others.
     *
     * @throws IllegalArgumentException naming the pool whose tokenizer files cannot be loaded; nothing changed then
     */
    public synchronized void apply(List<PoolConfig> pools) {
        Map<TokenizerConfig, PromptTokenizer> next = new HashMap<>();
        List<PromptTokenizer> fresh = new ArrayList<>();
        for (PoolConfig pool : pools) {
            TokenizerConfig c = pool.tokenizer();
            if (c == null || c.source() != TokenizerConfig.TokenSource.FILES || next.containsKey(c)) {
                continue;
            }
            PromptTokenizer t = loaded.get(c);
            if (t == null) {
                try {
                    t = PromptTokenizer.load(c.path(), c.cacheTokens());
                } catch (IOException | RuntimeException e) {
                    fresh.forEach(PromptTokenizer::close);
                    throw new IllegalArgumentException("spec.schedulers '" + pool.name() + "' tokenizer: "
                            + e.getMessage(), e);
                }
                fresh.add(t);
            }
            next.put(c, t);
        }
        retired.forEach(PromptTokenizer::close);
        retired.clear();
        for (Map.Entry<TokenizerConfig, PromptTokenizer> e : loaded.entrySet()) {
            if (!next.containsKey(e.getKey())) {
                retired.add(e.getValue());
            }
        }
        loaded = Map.copyOf(next);
        Map<String, TokenizerConfig> byPool = new HashMap<>();
        for (PoolConfig pool : pools) {
            if (pool.tokenizer() != null && pool.tokenizer().source() == TokenizerConfig.TokenSource.ENGINE
                    && engine == null) {
                engine = new EngineTokenizer(engineResponses);
            }
            if (pool.tokenizer() != null) {
                byPool.put(pool.name(), pool.tokenizer());
                poolMeters.computeIfAbsent(pool.name(), name -> meters.pool(name, () -> cachedTokens(name)));
            }
        }
        configs = Map.copyOf(byPool);
    }

    /** Whether requests to {@code pool} are tokenized. */
    public boolean tokenizes(PoolConfig pool) {
        TokenizerConfig c = pool.tokenizer();
        return c != null && (c.source() == TokenizerConfig.TokenSource.ENGINE || loaded.containsKey(c));
    }

    /**
     * The prompt of a chat (or Responses) request, when {@code chat}, or else of a completion request to {@code pool}
     * with this {@code body}, tokenized; null when the pool has no tokenizer or the body has no exact count
     * ({@link RequestPrompt#of}).
     *
     * @throws TemplateException when the model's chat template refuses the messages
     */
    public RequestPrompt tokenize(PoolConfig pool, JsonNode body, boolean chat) {
        PromptTokenizer t = pool.tokenizer() == null ? null : loaded.get(pool.tokenizer());
        if (t == null) {
            return null;
        }
        long start = System.nanoTime();
        RequestPrompt prompt;
        try {
            prompt = RequestPrompt.of(t, body, chat);
        } catch (TemplateException e) {
            throw e;
        } catch (RuntimeException e) { // a body the library cannot take: the request keeps its estimate
            LOG.debug("A prompt to pool {} was not tokenized: {}", pool.name(), e.toString());
            prompt = null;
        }
        counted(pool, prompt, System.nanoTime() - start);
        return prompt;
    }

    /**
     * The prompt of a request to {@code pool}, tokenized off the caller's thread: by the model's files on one of the
     * tokenizer threads ({@link #tokenize}), or by the engine of one of {@code pods}. Completes with null when the
     * request keeps its estimate: a body with no exact count, no pod to ask, an engine that does not answer, or all
     * threads busy with {@link #QUEUE} requests waiting already (each counted as skipped).
     *
     * @param chat whether the body is a chat or Responses request's (else a completion's)
     */
    public CompletableFuture<RequestPrompt> tokenizeAsync(PoolConfig pool, List<Endpoint> pods, JsonNode body,
            boolean chat) {
        if (pool.tokenizer() != null && pool.tokenizer().source() == TokenizerConfig.TokenSource.ENGINE) {
            if (pods.isEmpty()) {
                counted(pool, null, 0);
                return CompletableFuture.completedFuture(null);
            }
            long start = System.nanoTime();
            return engine.tokenize(pods.get(ThreadLocalRandom.current().nextInt(pods.size())), body, chat)
                    .whenComplete((p, e) -> counted(pool, p, System.nanoTime() - start));
        }
        try {
            return CompletableFuture.supplyAsync(() -> tokenize(pool, body, chat), workers);
        } catch (RejectedExecutionException e) {
            counted(pool, null, 0);
            return CompletableFuture.completedFuture(null);
        }
    }

    /** Counts a request to {@code pool} in its meters: {@code prompt}'s tokens, or skipped when null. */
    private void counted(PoolConfig pool, RequestPrompt prompt, long nanos) {
        TokenizeMeters.Pool m = poolMeters.get(pool.name());
        if (m != null) {
            m.tokenized(prompt == null ? -1 : prompt.tokens().length, nanos);
        }
    }

    /** The tokens cached by the tokenizer of the pool named {@code name} now (pools naming the same files share it). */
    private long cachedTokens(String name) {
        TokenizerConfig c = configs.get(name);
        PromptTokenizer t = c == null ? null : loaded.get(c);
        return t == null ? 0 : t.cachedTokens();
    }

    @Override
    public synchronized void close() {
        workers.shutdownNow();
        engineResponses.shutdownNow();
        loaded.values().forEach(PromptTokenizer::close);
        retired.forEach(PromptTokenizer::close);
        loaded = Map.of();
        retired.clear();
    }
}
