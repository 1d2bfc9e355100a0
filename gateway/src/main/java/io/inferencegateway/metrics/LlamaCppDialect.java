package io.inferencegateway.metrics;

import static io.inferencegateway.metrics.SeriesTable.ReadingField.PREFIX_HITS;
import static io.inferencegateway.metrics.SeriesTable.ReadingField.PREFIX_MISSES;
import static io.inferencegateway.metrics.SeriesTable.ReadingField.RUNNING;
import static io.inferencegateway.metrics.SeriesTable.ReadingField.WAITING;
import static io.inferencegateway.metrics.SeriesTable.counter;
import static io.inferencegateway.metrics.SeriesTable.gauge;

/**
 * llama.cpp's {@code llama-server}, started with {@code --metrics} (without it {@code /metrics} answers 501, which
 * counts as a failed scrape). Its series are unlabelled gauges and counters under the {@code llamacpp:} prefix.
 *
 * <ul>
 *   <li>running: {@code requests_processing}, the slots that hold a request; waiting: {@code requests_deferred},
 *       requests the server parked because no slot was free. So a pod defers only when all its slots are busy,
 *       and the queue the scheduler reads is exactly the requests that will start late.</li>
 *   <li>KV use stays unknown. The server publishes no KV gauge, and busy slots are not KV use: a slot reserves
 *       its context whether it holds ten tokens or ten thousand, and a full set of slots shows up as deferred
 *       requests, which the scheduler already reads as queue. Unknown KV is neutral for the KV scorer (every pod
 *       of the pool scores the same) and never trips the saturation filter.</li>
 *   <li>KV geometry stays unknown too, so the prefix index keeps its default per-pod budget: the server's prompt
 *       cache lives in its slots and, in recent builds, in host memory ({@code --cache-ram}), a size
 *       {@code /metrics} does not say.</li>
 *   <li>Prefix-cache tokens: {@code prompt_tokens_total} counts prompt tokens computed, without those reused
 *       from the cache, which {@code prompt_tokens_cached_total} counts. Queried = both, hit = cached; builds
 *       without the cached counter leave both unknown rather than report a hit rate of zero.</li>
 * </ul>
 *
 * {@code GET /slots} and {@code GET /props} (slot count, per-slot context) are not read. The state they would
 * add is "all slots busy", and that state is already visible: a deferred request exists only then, and between
 * scrapes the scheduler counts what it sent as queued. Among pods with free slots, fewer processing means more
 * free slots when the pods run the same {@code --parallel}, which the running-requests scorer ranks. Reading them
 * would double the requests per pod per tick for that one case (pools mixing slot counts).
 */
final class LlamaCppDialect {

    static final EngineDialect INSTANCE = new EngineDialect.Of("llamacpp", "/metrics", SeriesTable.unranked(
            gauge("llamacpp:requests_deferred", WAITING),
            gauge("llamacpp:requests_processing", RUNNING),
            counter("llamacpp:prompt_tokens_total", PREFIX_MISSES),
            counter("llamacpp:prompt_tokens_cached_total", PREFIX_HITS)));

    private LlamaCppDialect() {
    }
}
