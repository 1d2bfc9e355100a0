package io.inferencegateway.metrics;

/**
 * Hugging Face Text Generation Inference. It publishes its queue and batch sizes, unlabelled, and nothing about KV
 * use, LoRA or prefix caching: those stay unknown.
 */
final class TgiDialect {

    static final EngineDialect INSTANCE = new EngineDialect.Of("tgi", "/metrics", TgiReading::new);

    private static final int WAITING = 0;
    private static final int RUNNING = 1;
    private static final MetricNameTable NAMES = new MetricNameTable(
            "tgi_queue_size",
            "tgi_batch_current_size");

    private TgiDialect() {
    }

    private static final class TgiReading extends EngineReading {

        TgiReading() {
            super(NAMES);
        }

        @Override
        public void sample(int id, Labels labels, double value) {
            switch (id) {
                case WAITING -> waiting.record(labels, null, value);
                case RUNNING -> running.record(labels, null, value);
                default -> {
                }
            }
        }
    }
}
