package io.inferencegateway.metrics;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * What a model server's exposition means, declared as data: for each series the engine publishes, which part of the
 * reading it fills and how. One reader reads every engine by its table ({@link #get} makes it, fresh per exposition);
 * {@link EngineReading} holds the rules every engine shares (ranks summed or the fullest taken, unknown never 0).
 * Adding an engine is one table (docs/adding-an-engine.md):
 *
 * <pre>{@code
 * SeriesTable.rankedBy("engine",
 *         gauge("vllm:num_requests_waiting", WAITING),
 *         gauge("vllm:kv_cache_usage_perc", KV_USAGE),
 *         gauge("vllm:gpu_cache_usage_perc", KV_USAGE).olderName(),
 *         counter("vllm:prefix_cache_queries_total", PREFIX_QUERIES),
 *         infoLabel("vllm:cache_config_info", "block_size", BLOCK_SIZE),
 *         loraInfo("vllm:lora_requests_info"))
 * }</pre>
 *
 * A series may be named more than once (an info series whose labels fill two fields). A series the table does not
 * name is skipped by the parser at its first byte that no named series has there.
 */
final class SeriesTable implements Supplier<EngineReading> {

    /** What a series fills in the reading, and how values of it combine. */
    enum ReadingField {
        /** Requests waiting: per data-parallel rank, summed over ranks. */
        WAITING(true, false),
        /** Requests running: per rank, summed over ranks. */
        RUNNING(true, false),
        /** KV-cache use, 0..1: per rank, the fullest rank. */
        KV_USAGE(true, false),
        /** KV blocks: per rank, summed over ranks (the pod's whole cache). */
        KV_BLOCKS(true, false),
        /** Tokens per KV block: the largest reported. */
        BLOCK_SIZE(false, false),
        /** Prompt tokens looked up in the prefix cache: a counter, summed over its series. */
        PREFIX_QUERIES(false, true),
        /** Prompt tokens found in the GPU prefix cache: a counter, summed. */
        PREFIX_HITS(false, true),
        /**
         * Prompt tokens computed, not found in the cache: a counter, summed. An engine that counts these instead of
         * {@link #PREFIX_QUERIES} has its queries as misses plus hits, and neither when one of the two is missing
         * (rather than a hit rate of zero).
         */
        PREFIX_MISSES(false, true);

        final boolean perRank;
        final boolean counter;

        ReadingField(boolean perRank, boolean counter) {
            this.perRank = perRank;
            this.counter = counter;
        }
    }

    /** How a series gives its number. */
    enum SeriesKind {
        /** The sample's value, a gauge. */
        GAUGE,
        /** The sample's value, a counter. */
        COUNTER,
        /** A number in one label of an info series (whose value says nothing). */
        INFO_LABEL,
        /** vLLM's {@code lora_requests_info}: the newest series' adapter labels ({@link EngineReading}). */
        LORA_INFO
    }

    /**
     * One line of an engine's table.
     *
     * @param metric     the series' name
     * @param kind       how it gives its number
     * @param field      what it fills (null for {@link SeriesKind#LORA_INFO})
     * @param label      the label that holds the number ({@link SeriesKind#INFO_LABEL} only)
     * @param whereLabel a label that, when the sample has it, must have {@code whereValue} for the sample to count;
     *                   null for every sample
     * @param whereValue the value {@code whereLabel} must have
     * @param older      whether the metric is an older name of the field's series: it counts only when the current
     *                   names gave the field nothing (the prefix-cache counters count as one field)
     */
    record SeriesLine(String metric, SeriesKind kind, ReadingField field, String label, String whereLabel,
            String whereValue, boolean older) {

        SeriesLine {
            Objects.requireNonNull(metric, "metric");
            if (kind != SeriesKind.LORA_INFO && (Objects.requireNonNull(field, "field").counter
                    != (kind == SeriesKind.COUNTER))) {
                throw new IllegalArgumentException(metric + ": " + field + (field.counter ? " is" : " is not")
                        + " a counter");
            }
        }

        /** Counts only the samples that have no {@code label} or have it with {@code value}. */
        SeriesLine where(String label, String value) {
            return new SeriesLine(metric, kind, field, this.label, label, value, older);
        }

        /** An older name: counts only when the current names gave the field nothing. */
        SeriesLine olderName() {
            return new SeriesLine(metric, kind, field, label, whereLabel, whereValue, true);
        }

        boolean counts(Labels labels) {
            if (whereLabel == null) {
                return true;
            }
            int at = labels.indexOf(whereLabel);
            return at < 0 || labels.valueEquals(at, whereValue);
        }
    }

    static SeriesLine gauge(String metric, ReadingField field) {
        return new SeriesLine(metric, SeriesKind.GAUGE, field, null, null, null, false);
    }

    static SeriesLine counter(String metric, ReadingField field) {
        return new SeriesLine(metric, SeriesKind.COUNTER, field, null, null, null, false);
    }

    static SeriesLine infoLabel(String metric, String label, ReadingField field) {
        return new SeriesLine(metric, SeriesKind.INFO_LABEL, field, Objects.requireNonNull(label, "label"), null, null,
                false);
    }

    static SeriesLine loraInfo(String metric) {
        return new SeriesLine(metric, SeriesKind.LORA_INFO, null, null, null, null, false);
    }

    /** An engine whose per-rank series name their data-parallel rank in {@code rankLabel}. */
    static SeriesTable rankedBy(String rankLabel, SeriesLine... lines) {
        return new SeriesTable(Objects.requireNonNull(rankLabel, "rankLabel"), lines);
    }

    /** An engine without data-parallel ranks: copies of one series (say, one per process) combine by max. */
    static SeriesTable unranked(SeriesLine... lines) {
        return new SeriesTable(null, lines);
    }

    private final String rankLabel;
    private final MetricNameTable names;
    /** The table's lines by the id of their series' name in {@link #names}. */
    private final SeriesLine[][] byName;
    private final boolean countsMisses;

    private SeriesTable(String rankLabel, SeriesLine[] lines) {
        this.rankLabel = rankLabel;
        Map<String, List<SeriesLine>> grouped = new LinkedHashMap<>();
        for (SeriesLine line : lines) {
            grouped.computeIfAbsent(line.metric(), m -> new ArrayList<>()).add(line);
        }
        this.names = new MetricNameTable(grouped.keySet().toArray(String[]::new));
        this.byName = grouped.values().stream().map(l -> l.toArray(SeriesLine[]::new)).toArray(SeriesLine[][]::new);
        this.countsMisses = Arrays.stream(lines).anyMatch(l -> l.field() == ReadingField.PREFIX_MISSES);
    }

    /** A fresh reading of one exposition. */
    @Override
    public EngineReading get() {
        return new TableReading(this);
    }

    /** The one reader of every table: fills the reading's fields as the table says, settles older names at the end. */
    private static final class TableReading extends EngineReading {
        private static final ReadingField[] FIELDS = ReadingField.values();

        private final SeriesTable table;
        /** The fields that are one total (not per rank), by field: counters summed, the block size the largest. */
        private final double[] totals = unknown();
        /** What the older names said, by field: per rank, or one total. */
        private PerRankValues[] olderRanks;
        private double[] olderTotals;

        TableReading(SeriesTable table) {
            super(table.names);
            this.table = table;
        }

        private static double[] unknown() {
            double[] values = new double[FIELDS.length];
            Arrays.fill(values, Double.NaN);
            return values;
        }

        @Override
        public void sample(int id, Labels labels, double value) {
            for (SeriesLine line : table.byName[id]) {
                if (!line.counts(labels)) {
                    continue;
                }
                switch (line.kind()) {
                    case GAUGE, COUNTER -> fill(line, labels, value);
                    case INFO_LABEL -> {
                        int at = labels.indexOf(line.label());
                        if (at >= 0) {
                            fill(line, labels, labels.numberValue(at));
                        }
                    }
                    case LORA_INFO -> recordLoraInfo(labels, value);
                }
            }
        }

        private void fill(SeriesLine line, Labels labels, double value) {
            ReadingField field = line.field();
            if (field.perRank) {
                ranks(field, line.older()).record(labels, table.rankLabel, value);
                return;
            }
            boolean valid = field.counter ? Double.isFinite(value) && value >= 0 : Double.isFinite(value) && value > 0;
            if (!valid) {
                return; // NaN, infinite or negative says nothing (nor a block of no tokens)
            }
            double[] t = line.older() ? olderTotals() : totals;
            double total = t[field.ordinal()];
            t[field.ordinal()] = Double.isNaN(total) ? value : field.counter ? total + value : Math.max(total, value);
        }

        private PerRankValues ranks(ReadingField field, boolean older) {
            if (!older) {
                return switch (field) {
                    case WAITING -> waiting;
                    case RUNNING -> running;
                    case KV_USAGE -> kvUsage;
                    case KV_BLOCKS -> kvTotalBlocks;
                    default -> throw new IllegalArgumentException(field + " is not per rank");
                };
            }
            if (olderRanks == null) {
                olderRanks = new PerRankValues[FIELDS.length];
            }
            if (olderRanks[field.ordinal()] == null) {
                olderRanks[field.ordinal()] = new PerRankValues();
            }
            return olderRanks[field.ordinal()];
        }

        private double[] olderTotals() {
            if (olderTotals == null) {
                olderTotals = unknown();
            }
            return olderTotals;
        }

        /** Older names where the current ones said nothing; then the totals, the prefix-cache counters settled. */
        @Override
        protected void finish() {
            if (olderRanks != null) {
                for (ReadingField field : FIELDS) {
                    PerRankValues older = olderRanks[field.ordinal()];
                    if (older != null && ranks(field, false).isEmpty()) {
                        ranks(field, false).take(older);
                    }
                }
            }
            double[] blockSize = totals;
            double[] prefix = totals;
            if (olderTotals != null) {
                if (Double.isNaN(totals[ReadingField.BLOCK_SIZE.ordinal()])) {
                    blockSize = olderTotals;
                }
                if (noCounters(totals)) {
                    prefix = olderTotals;
                }
            }
            recordBlockSize(blockSize[ReadingField.BLOCK_SIZE.ordinal()]);
            double hits = prefix[ReadingField.PREFIX_HITS.ordinal()];
            if (table.countsMisses) {
                double misses = prefix[ReadingField.PREFIX_MISSES.ordinal()];
                if (!Double.isNaN(misses) && !Double.isNaN(hits)) {
                    addPrefixCacheQueries(misses + hits);
                    addPrefixCacheHits(hits);
                }
                return;
            }
            addPrefixCacheQueries(prefix[ReadingField.PREFIX_QUERIES.ordinal()]);
            addPrefixCacheHits(hits);
        }

        /** Whether no prefix-cache counter is known in {@code t}: they count as one field. */
        private static boolean noCounters(double[] t) {
            for (ReadingField field : FIELDS) {
                if (field.counter && !Double.isNaN(t[field.ordinal()])) {
                    return false;
                }
            }
            return true;
        }
    }
}
