package io.inferencegateway.metrics;

import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.regex.Pattern;

import io.inferencegateway.domain.InFlightRequests;

/** How one model-server engine publishes its load: where its Prometheus exposition lives and which series to read. */
public interface EngineDialect {

    /** The engine's config name, the value of a pool's {@code engineType}: kebab-case, e.g. {@code vllm}. */
    String name();

    /** HTTP path of the engine's Prometheus exposition, e.g. {@code /metrics}. */
    String metricsPath();

    /** A fresh accumulator for one exposition. */
    EngineReading newReading();

    /**
     * Where the engine tells the size of its KV cache when its exposition does not (llama.cpp's {@code /props}); null
     * when the exposition says it or nothing does. Read when a pod is first scraped, again every
     * {@link MetricsScraper#CAPACITY_REFRESH} and after a failed scrape (a restart may change it).
     */
    default String capacityPath() {
        return null;
    }

    /** The KV cache an answer from {@link #capacityPath} describes; null when it describes none. */
    default KvGeometry readCapacity(byte[] body, int offset, int length) {
        return null;
    }

    /** This dialect, its KV geometry read from {@code path} by {@code reader}: an engine whose exposition lacks it. */
    default EngineDialect withCapacity(String path, CapacityReader reader) {
        return new WithCapacity(this, path, reader);
    }

    /** Reads the answer of a {@link #capacityPath}; null when it describes no KV cache. Must not throw. */
    @FunctionalInterface
    interface CapacityReader {
        KvGeometry read(byte[] body, int offset, int length);
    }

    /** {@link #withCapacity}: the exposition's dialect and where its engine tells its cache's size. */
    record WithCapacity(EngineDialect exposition, String capacityPath, CapacityReader reader) implements EngineDialect {

        public WithCapacity {
            Objects.requireNonNull(exposition, "exposition");
            Objects.requireNonNull(capacityPath, "capacityPath");
            Objects.requireNonNull(reader, "reader");
        }

        @Override
        public String name() {
            return exposition.name();
        }

        @Override
        public String metricsPath() {
            return exposition.metricsPath();
        }

        @Override
        public EngineReading newReading() {
            return exposition.newReading();
        }

        @Override
        public KvGeometry readCapacity(byte[] body, int offset, int length) {
            return reader.read(body, offset, length);
        }
    }

    /**
     * A KV cache's size: {@code blocks} units of {@code blockTokens} tokens each (vLLM's blocks, llama.cpp's slots).
     * Only the product, the tokens it holds, is compared across engines.
     */
    record KvGeometry(int blockTokens, long blocks) {
        public KvGeometry {
            if (blockTokens < 1 || blocks < 1) {
                throw new IllegalArgumentException("a KV cache holds at least one token, got " + blockTokens + " x "
                        + blocks);
            }
        }
    }

    /**
     * This dialect for a pool of {@code model}: the same for a model server, whose exposition is its own; for an
     * exposition that covers several models (a cluster gateway's capacity summary) one that asks for and reads only
     * that model's. Asked once per scrape tick of a pool.
     */
    default EngineDialect forModel(String model) {
        return this;
    }

    /**
     * A dialect made of its engine's config name, its exposition's path and a fresh reading per exposition.
     *
     * @param perModel the dialect for one model's pool ({@link #forModel}), or null when the exposition does not
     *                 depend on the model
     */
    record Of(String name, String metricsPath, Supplier<EngineReading> readings,
            Function<String, EngineDialect> perModel) implements EngineDialect {

        private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9]*(-[a-z0-9]+)*");

        public Of {
            if (!NAME.matcher(name).matches()) {
                throw new IllegalArgumentException("engine name '" + name + "' must be kebab-case, e.g. vllm");
            }
            Objects.requireNonNull(metricsPath, "metricsPath");
            Objects.requireNonNull(readings, "readings");
        }

        /** A model server's dialect: one exposition, whatever the pool's model. */
        public Of(String name, String metricsPath, Supplier<EngineReading> readings) {
            this(name, metricsPath, readings, null);
        }

        @Override
        public EngineReading newReading() {
            return readings.get();
        }

        @Override
        public EngineDialect forModel(String model) {
            return perModel == null ? this : perModel.apply(model);
        }
    }

    /** The result of reading one exposition: the metrics, and what the parser saw. */
    record Parsed(EndpointMetrics metrics, PrometheusTextParser.ParseStats stats) {
    }

    /** Parses one exposition into metrics stamped with the scrape's start and the gateway's counters then. */
    default Parsed read(byte[] text, int offset, int length, long scrapeStartedNanos,
            InFlightRequests.Counters dispatchedAtScrape) {
        EngineReading reading = newReading();
        PrometheusTextParser.ParseStats stats = new PrometheusTextParser().parse(text, offset, length, reading);
        return new Parsed(reading.toMetrics(scrapeStartedNanos, dispatchedAtScrape), stats);
    }
}
