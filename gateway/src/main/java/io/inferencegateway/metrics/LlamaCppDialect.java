package io.inferencegateway.metrics;

import static io.inferencegateway.metrics.SeriesTable.ReadingField.PREFIX_HITS;
import static io.inferencegateway.metrics.SeriesTable.ReadingField.PREFIX_MISSES;
import static io.inferencegateway.metrics.SeriesTable.ReadingField.RUNNING;
import static io.inferencegateway.metrics.SeriesTable.ReadingField.WAITING;
import static io.inferencegateway.metrics.SeriesTable.counter;
import static io.inferencegateway.metrics.SeriesTable.gauge;

import java.io.IOException;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

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
 *   <li>KV geometry comes from {@code GET /props} ({@link EngineDialect#capacityPath}): {@code total_slots} slots of
 *       {@code default_generation_settings.n_ctx} tokens each, the context every slot keeps its last prompt in. It
 *       bounds what the prefix index believes a pod holds and weighs the pod's share of conversations
 *       (docs/sessions.md). A server started with {@code --kv-unified} gives every slot the whole context, so this
 *       overstates its cache by the slot count; pods of one pool normally share their flags, which keeps the shares
 *       right. A build whose {@code /props} fails or lacks the fields leaves the geometry unknown.
 *       Host-memory prompt caching ({@code --cache-ram}) is not counted: {@code /props} does not say its size.</li>
 *   <li>Prefix-cache tokens: {@code prompt_tokens_total} counts prompt tokens computed, without those reused
 *       from the cache, which {@code prompt_tokens_cached_total} counts. Queried = both, hit = cached; builds
 *       without the cached counter leave both unknown rather than report a hit rate of zero.</li>
 * </ul>
 *
 * {@code GET /slots} is not read. The state it would add is "all slots busy", and that state is already visible: a
 * deferred request exists only then, and between scrapes the scheduler counts what it sent as queued. Reading it
 * would double the requests per pod per tick.
 */
final class LlamaCppDialect {

    private static final ObjectMapper JSON = new ObjectMapper();

    static final EngineDialect INSTANCE = new EngineDialect.Of("llamacpp", "/metrics", SeriesTable.unranked(
            gauge("llamacpp:requests_deferred", WAITING),
            gauge("llamacpp:requests_processing", RUNNING),
            counter("llamacpp:prompt_tokens_total", PREFIX_MISSES),
            counter("llamacpp:prompt_tokens_cached_total", PREFIX_HITS)))
            .withCapacity("/props", LlamaCppDialect::slotsAndContext);

    private LlamaCppDialect() {
    }

    /** {@code total_slots} and {@code default_generation_settings.n_ctx} of a {@code /props} answer. */
    static EngineDialect.KvGeometry slotsAndContext(byte[] body, int offset, int length) {
        JsonNode props;
        try {
            props = JSON.readTree(body, offset, length);
        } catch (IOException e) {
            return null; // not JSON, or cut short: as if the server said nothing
        }
        if (props == null) {
            return null;
        }
        JsonNode slots = props.path("total_slots");
        JsonNode slotContext = props.path("default_generation_settings").path("n_ctx");
        return slots.isIntegralNumber() && slots.canConvertToLong() && slots.longValue() >= 1
                && slotContext.isIntegralNumber() && slotContext.canConvertToInt() && slotContext.intValue() >= 1
                ? new EngineDialect.KvGeometry(slotContext.intValue(), slots.longValue()) : null;
    }
}
