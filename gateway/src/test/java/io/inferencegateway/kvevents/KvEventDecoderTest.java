package io.inferencegateway.kvevents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.math.BigInteger;

import org.junit.jupiter.api.Test;
import org.msgpack.core.MessageBufferPacker;
import org.msgpack.core.MessagePack;

/**
 * The payloads of vLLM's KV-event publisher in both of its encodings (msgspec's tagged arrays, and tagged maps since
 * 2026), SGLang's batch map, and what a broken or hostile frame gets.
 */
class KvEventDecoderTest {

    /** 2^64 - 2: an unsigned 64-bit hash past a signed long, as vLLM's integer hashes often are. */
    static final BigInteger BIG = BigInteger.TWO.pow(64).subtract(BigInteger.TWO);

    @Test
    void aBatchOfTaggedArraysAsOlderVllmPublishesIt() throws IOException {
        MessageBufferPacker p = MessagePack.newDefaultBufferPacker();
        p.packArrayHeader(3).packDouble(1733000000.5).packArrayHeader(3);
        // ["BlockStored", block_hashes, parent_block_hash, token_ids, block_size, lora_id, medium]
        p.packArrayHeader(7).packString("BlockStored").packArrayHeader(2).packLong(11).packBigInteger(BIG)
                .packNil().packArrayHeader(4).packInt(1).packInt(2).packInt(3).packInt(4).packInt(2).packNil()
                .packString("GPU");
        p.packArrayHeader(3).packString("BlockRemoved").packArrayHeader(1).packLong(11).packString("CPU");
        p.packArrayHeader(1).packString("AllBlocksCleared");
        p.packInt(1);

        KvEventBatch batch = KvEventDecoder.decode(p.toByteArray());

        assertThat(batch.timestamp()).isEqualTo(1733000000.5);
        assertThat(batch.dataParallelRank()).isEqualTo(1);
        assertThat(batch.events()).hasSize(3);
        KvEvent.BlockStored stored = (KvEvent.BlockStored) batch.events().get(0);
        assertThat(stored.blockHashes()).containsExactly(11L, BIG.longValue());
        assertThat(stored.parentHash()).isNull();
        assertThat(stored.tokenIds()).containsExactly(1, 2, 3, 4);
        assertThat(stored.blockSize()).isEqualTo(2);
        assertThat(stored.medium()).isEqualTo(KvEvent.Medium.GPU);
        KvEvent.BlockRemoved removed = (KvEvent.BlockRemoved) batch.events().get(1);
        assertThat(removed.blockHashes()).containsExactly(11L);
        assertThat(removed.medium()).isEqualTo(KvEvent.Medium.CPU);
        assertThat(batch.events().get(2)).isInstanceOf(KvEvent.AllBlocksCleared.class);
    }

    @Test
    void aBatchOfTaggedMapsAsVllmPublishesItNowWithFieldsItDoesNotKnow() throws IOException {
        MessageBufferPacker p = MessagePack.newDefaultBufferPacker();
        p.packMapHeader(4).packString("ts").packDouble(2.0).packString("data_parallel_rank").packInt(3)
                .packString("publisher_id").packString("engine-7")
                .packString("events").packArrayHeader(2);
        p.packMapHeader(8).packString("type").packString("BlockStored")
                .packString("block_hashes").packArrayHeader(1).packBinaryHeader(32).writePayload(bytes32())
                .packString("parent_block_hash").packBigInteger(BIG)
                .packString("token_ids").packArrayHeader(2).packInt(7).packInt(8)
                .packString("block_size").packInt(16)
                .packString("lora_name").packString("sql-lora")
                .packString("group_idx").packInt(1)
                .packString("kv_cache_spec_kind").packString("full_attention");
        p.packMapHeader(2).packString("type").packString("KvCacheResized").packString("blocks").packInt(9);

        KvEventBatch batch = KvEventDecoder.decode(p.toByteArray());

        assertThat(batch.dataParallelRank()).isEqualTo(3);
        assertThat(batch.unknown()).isEqualTo(1);
        KvEvent.BlockStored stored = (KvEvent.BlockStored) batch.events().get(0);
        assertThat(stored.blockHashes()).containsExactly(0x18191a1b1c1d1e1fL);
        assertThat(stored.parentHash()).isEqualTo(BIG.longValue());
        assertThat(stored.loraName()).isEqualTo("sql-lora");
        assertThat(stored.group()).isEqualTo(1);
        assertThat(stored.tokenIds()).containsExactly(7, 8);
    }

    @Test
    void sglangsBatchNamesItsRankAttnDpRank() throws IOException {
        MessageBufferPacker p = MessagePack.newDefaultBufferPacker();
        p.packMapHeader(3).packString("ts").packDouble(1).packString("events").packArrayHeader(0)
                .packString("attn_dp_rank").packInt(2);
        assertThat(KvEventDecoder.decode(p.toByteArray()).dataParallelRank()).isEqualTo(2);
    }

    @Test
    void brokenAndHostileFramesAreRefusedWithoutReadingPastThem() throws IOException {
        assertThatThrownBy(() -> KvEventDecoder.decode(new byte[] {(byte) 0xc1}))
                .isInstanceOf(KvEventFormatException.class);
        assertThatThrownBy(() -> KvEventDecoder.decode("hello".getBytes()))
                .isInstanceOf(KvEventFormatException.class);
        // arrays that claim four billion and 65,535 elements in frames of 5 and 3 bytes
        assertThatThrownBy(() -> KvEventDecoder.decode(new byte[] {(byte) 0xdd, -1, -1, -1, -1}))
                .isInstanceOf(KvEventFormatException.class);
        assertThatThrownBy(() -> KvEventDecoder.decode(new byte[] {(byte) 0xdc, -1, -1}))
                .isInstanceOf(KvEventFormatException.class).hasMessageContaining("past the payload's end");
        MessageBufferPacker deep = MessagePack.newDefaultBufferPacker();
        for (int i = 0; i < 100; i++) {
            deep.packArrayHeader(1);
        }
        deep.packNil();
        assertThatThrownBy(() -> KvEventDecoder.decode(deep.toByteArray())).hasMessageContaining("nested deeper");
        MessageBufferPacker noEvents = MessagePack.newDefaultBufferPacker();
        noEvents.packArrayHeader(2).packDouble(1).packString("events?");
        assertThatThrownBy(() -> KvEventDecoder.decode(noEvents.toByteArray())).hasMessageContaining("no list");
        MessageBufferPacker tooManyTokens = MessagePack.newDefaultBufferPacker();
        tooManyTokens.packArrayHeader(2).packDouble(1).packArrayHeader(1).packArrayHeader(5)
                .packString("BlockStored").packArrayHeader(1).packInt(1).packNil().packArrayHeader(3).packInt(1)
                .packInt(2).packInt(3).packInt(2);
        assertThatThrownBy(() -> KvEventDecoder.decode(tooManyTokens.toByteArray())).hasMessageContaining("block_size");
    }

    private static byte[] bytes32() {
        byte[] b = new byte[32];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) i;
        }
        return b;
    }
}
