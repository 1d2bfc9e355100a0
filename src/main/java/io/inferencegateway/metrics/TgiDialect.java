package io.inferencegateway.metrics;

import io.inferencegateway.config.EngineType;

/**
 * Hugging Face Text Generation Inference. It publishes its queue and batch sizes, unlabelled, and nothing about KV
 * use, LoRA or prefix caching: those stay unknown.
 */
final class TgiDialect implements EngineDialect {

    static final TgiDialect INSTANCE = new TgiDialect();

    private static final int WAITING = 0;
    private static final int RUNNING = 1;
    private static final MetricNameTable NAMES = new MetricNameTable(
            "tgi_queue_size",
            "tgi_batch_current_size");

    private TgiDialect() {
    }

    @Override
    public EngineType engine() {
        return EngineType.TGI;
    }

    @Override
    public String metricsPath() {
        return "/metrics";
    }

    @Override
    public EngineReading newReading() {
        return new Reading();
    }

    private static final class Reading extends EngineReading {

        @Override
        public int select(byte[] text, int nameOffset, int nameLength, int nameHash) {
            return NAMES.find(text, nameOffset, nameLength, nameHash);
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
