package io.inferencegateway.metrics;

import static io.inferencegateway.metrics.SeriesTable.ReadingField.BLOCK_SIZE;
import static io.inferencegateway.metrics.SeriesTable.ReadingField.KV_BLOCKS;
import static io.inferencegateway.metrics.SeriesTable.ReadingField.PREFIX_HITS;
import static io.inferencegateway.metrics.SeriesTable.ReadingField.PREFIX_QUERIES;
import static io.inferencegateway.metrics.SeriesTable.ReadingField.WAITING;
import static io.inferencegateway.metrics.SeriesTable.counter;
import static io.inferencegateway.metrics.SeriesTable.gauge;
import static io.inferencegateway.metrics.SeriesTable.infoLabel;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import io.inferencegateway.domain.InFlightRequests;

/** An engine's table as data: what each line fills, and how the one reader settles what they said. */
class SeriesTableTest {

    private static EndpointMetrics read(SeriesTable table, String exposition) {
        byte[] text = exposition.getBytes(StandardCharsets.UTF_8);
        return new EngineDialect.Of("test", "/metrics", table).read(text, 0, text.length, 0,
                InFlightRequests.Counters.ZERO).metrics();
    }

    @Test
    void aCounterFillsOnlyACounterFieldAndAGaugeOnlyAnother() {
        assertThatThrownBy(() -> counter("x_total", WAITING)).hasMessage("x_total: WAITING is not a counter");
        assertThatThrownBy(() -> gauge("x", PREFIX_HITS)).hasMessage("x: PREFIX_HITS is a counter");
    }

    @Test
    void aSeriesNamedTwiceFillsBothFieldsAndAWhereClauseLeavesOtherSamplesOut() {
        SeriesTable table = SeriesTable.rankedBy("rank",
                gauge("queue", WAITING).where("priority", ""),
                infoLabel("cache_info", "block", BLOCK_SIZE),
                infoLabel("cache_info", "blocks", KV_BLOCKS));

        EndpointMetrics m = read(table, """
                queue{rank="0",priority=""} 3
                queue{rank="0",priority="1"} 2
                queue{rank="1"} 4
                cache_info{rank="0",block="32",blocks="100"} 1
                cache_info{rank="1",block="32",blocks="50"} 1
                """);

        assertThat(m.waiting()).isEqualTo(7);
        assertThat(m.kvBlockSize()).isEqualTo(32);
        assertThat(m.kvTotalBlocks()).isEqualTo(150);
    }

    @Test
    void anOlderNameCountsOnlyWhereTheCurrentNamesSaidNothing() {
        SeriesTable table = SeriesTable.unranked(
                gauge("block_size", BLOCK_SIZE),
                gauge("old_block_size", BLOCK_SIZE).olderName(),
                counter("queries_total", PREFIX_QUERIES),
                counter("old_queries_total", PREFIX_QUERIES).olderName(),
                counter("old_hits_total", PREFIX_HITS).olderName());

        EndpointMetrics older = read(table, "old_block_size 16\nold_queries_total 90\nold_hits_total 30\n");
        EndpointMetrics both = read(table, "old_block_size 16\nblock_size 64\nold_queries_total 90\n"
                + "old_hits_total 30\nqueries_total 100\n");

        assertThat(older.kvBlockSize()).isEqualTo(16);
        assertThat(older.prefixCacheQueries()).isEqualTo(90);
        assertThat(older.prefixCacheHits()).isEqualTo(30);
        assertThat(both.kvBlockSize()).isEqualTo(64);
        assertThat(both.prefixCacheQueries()).isEqualTo(100);
        assertThat(both.prefixCacheHits()).as("the prefix-cache counters are one field").isNaN();
    }
}
