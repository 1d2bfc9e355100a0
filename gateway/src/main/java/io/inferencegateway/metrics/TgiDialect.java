package io.inferencegateway.metrics;

import static io.inferencegateway.metrics.SeriesTable.ReadingField.RUNNING;
import static io.inferencegateway.metrics.SeriesTable.ReadingField.WAITING;
import static io.inferencegateway.metrics.SeriesTable.gauge;

/**
 * Hugging Face Text Generation Inference. It publishes its queue and batch sizes, unlabelled, and nothing about KV
 * use, LoRA or prefix caching: those stay unknown.
 */
final class TgiDialect {

    static final EngineDialect INSTANCE = new EngineDialect.Of("tgi", "/metrics", SeriesTable.unranked(
            gauge("tgi_queue_size", WAITING),
            gauge("tgi_batch_current_size", RUNNING)));

    private TgiDialect() {
    }
}
