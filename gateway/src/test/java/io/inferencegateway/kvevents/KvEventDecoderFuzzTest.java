package io.inferencegateway.kvevents;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;

import org.msgpack.core.MessageBufferPacker;
import org.msgpack.core.MessagePack;

/**
 * KV-event payloads: any bytes decode to a batch or a {@link KvEventFormatException}, nothing else escapes; and a batch
 * made of fuzzed events, in either of vLLM's encodings (tagged arrays or tagged maps), with hashes as signed, unsigned
 * 64-bit or byte strings, decodes to those events. The first byte picks which.
 */
class KvEventDecoderFuzzTest {

    private static final String[] MEDIA = {"GPU", "CPU"};

    @FuzzTest(maxDuration = "2m")
    void decodesWhatWasEncodedAndRefusesTheRest(FuzzedDataProvider data) throws IOException {
        if (data.consumeBoolean()) {
            try {
                KvEventDecoder.decode(data.consumeRemainingAsBytes());
            } catch (KvEventFormatException refused) {
                // the one way to refuse
            }
            return;
        }
        boolean maps = data.consumeBoolean();
        MessageBufferPacker p = MessagePack.newDefaultBufferPacker();
        int count = data.consumeInt(0, 5);
        if (maps) {
            p.packMapHeader(3).packString("ts").packDouble(1).packString("data_parallel_rank").packInt(0)
                    .packString("events");
        } else {
            p.packArrayHeader(3).packDouble(1);
        }
        p.packArrayHeader(count);
        List<long[]> expected = new ArrayList<>();
        List<int[]> tokens = new ArrayList<>();
        for (int e = 0; e < count; e++) {
            boolean stored = data.consumeBoolean();
            int blocks = data.consumeInt(0, 4);
            int size = data.consumeInt(1, 4);
            long[] hashes = new long[blocks];
            String medium = MEDIA[data.consumeInt(0, 1)];
            if (maps) {
                p.packMapHeader(stored ? 5 : 3).packString("type").packString(stored ? "BlockStored" : "BlockRemoved")
                        .packString("medium").packString(medium).packString("block_hashes");
            } else {
                p.packArrayHeader(stored ? 7 : 3).packString(stored ? "BlockStored" : "BlockRemoved");
            }
            p.packArrayHeader(blocks);
            for (int b = 0; b < blocks; b++) {
                hashes[b] = data.consumeLong();
                switch (data.consumeInt(0, 2)) {
                    case 0 -> p.packLong(hashes[b]);
                    case 1 -> p.packBigInteger(new BigInteger(Long.toUnsignedString(hashes[b])));
                    default -> p.packBinaryHeader(8).writePayload(bigEndian(hashes[b]));
                }
            }
            int[] ids = new int[blocks * size];
            for (int t = 0; t < ids.length; t++) {
                ids[t] = data.consumeInt(0, 200_000);
            }
            if (stored) {
                if (maps) {
                    p.packString("token_ids");
                } else {
                    p.packNil(); // parent_block_hash
                }
                p.packArrayHeader(ids.length);
                for (int id : ids) {
                    p.packInt(id);
                }
                if (maps) {
                    p.packString("block_size").packInt(size);
                } else {
                    p.packInt(size).packNil().packString(medium);
                }
            } else if (!maps) {
                p.packString(medium);
            }
            expected.add(hashes);
            tokens.add(stored ? ids : null);
        }
        if (!maps) {
            p.packInt(0);
        }
        KvEventBatch batch = KvEventDecoder.decode(p.toByteArray());
        assertThat(batch.events()).hasSize(count);
        for (int e = 0; e < count; e++) {
            KvEvent event = batch.events().get(e);
            if (tokens.get(e) != null) {
                assertThat(((KvEvent.BlockStored) event).blockHashes()).containsExactly(expected.get(e));
                assertThat(((KvEvent.BlockStored) event).tokenIds()).containsExactly(tokens.get(e));
            } else {
                assertThat(((KvEvent.BlockRemoved) event).blockHashes()).containsExactly(expected.get(e));
            }
        }
    }

    /** A hash as the 8 big-endian bytes a byte-string hash ends with. */
    private static byte[] bigEndian(long v) {
        byte[] b = new byte[8];
        for (int i = 7; i >= 0; i--) {
            b[i] = (byte) v;
            v >>>= 8;
        }
        return b;
    }
}
