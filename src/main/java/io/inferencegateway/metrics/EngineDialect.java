package io.inferencegateway.metrics;

import java.util.Objects;
import java.util.function.Supplier;

import io.inferencegateway.config.EngineType;
import io.inferencegateway.domain.InFlightRequests;

/** How one model-server engine publishes its load: where its Prometheus exposition lives and which series to read. */
public interface EngineDialect {

    EngineType engine();

    /** HTTP path of the engine's Prometheus exposition, e.g. {@code /metrics}. */
    String metricsPath();

    /** A fresh accumulator for one exposition. */
    EngineReading newReading();

    /** A dialect made of its engine, its exposition's path and a fresh reading per exposition. */
    record Of(EngineType engine, String metricsPath, Supplier<EngineReading> readings) implements EngineDialect {
        @Override
        public EngineReading newReading() {
            return readings.get();
        }
    }

    /** The result of reading one exposition: the metrics, and what the parser saw. */
    record Parsed(EndpointMetrics metrics, PrometheusTextParser.Stats stats) {
    }

    /** Parses one exposition into metrics stamped with the scrape's start and the gateway's counters then. */
    default Parsed read(byte[] text, int offset, int length, long scrapeStartedNanos,
            InFlightRequests.Counters dispatchedAtScrape) {
        EngineReading reading = newReading();
        PrometheusTextParser.Stats stats = new PrometheusTextParser().parse(text, offset, length, reading);
        return new Parsed(reading.toMetrics(scrapeStartedNanos, dispatchedAtScrape), stats);
    }

    static EngineDialect forEngine(EngineType engine) {
        Objects.requireNonNull(engine, "engine");
        return switch (engine) {
            case VLLM -> VllmDialect.INSTANCE;
            case SGLANG -> SglangDialect.INSTANCE;
            case TGI -> TgiDialect.INSTANCE;
            case TRTLLM -> TrtllmDialect.INSTANCE;
            case LLAMACPP -> LlamaCppDialect.INSTANCE;
        };
    }
}
