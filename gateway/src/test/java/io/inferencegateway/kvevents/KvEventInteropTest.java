package io.inferencegateway.kvevents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.inferencegateway.domain.Endpoint;

/**
 * The subscription against a second, independent encoder of the wire format: tools/kv-events/publisher.py, written
 * in Python after vLLM's own publisher with pyzmq and msgpack (Debian's python3-zmq, python3-msgpack). Both encodings,
 * unsigned 64-bit hashes, a stored block's parent and tokens, a removal from the CPU tier, a clear, and a gap its
 * replay socket fills.
 */
class KvEventInteropTest {

    static final Path PUBLISHER = Path.of("..", "tools", "kv-events", "publisher.py");
    /** Debian's python3, which its python3-zmq and python3-msgpack install into (tools/provision.sh). */
    static final String PYTHON = Files.isExecutable(Path.of("/usr/bin/python3")) ? "/usr/bin/python3" : "python3";
    static final String BIG = "18446744073709551614"; // 2^64 - 2

    final List<KvEvent> events = Collections.synchronizedList(new ArrayList<>());
    final KvEventSubscriber subscriber = new KvEventSubscriber(new KvEventSubscriber.KvEventListener() {
        @Override
        public void batch(Endpoint endpoint, KvEventBatch batch) {
            events.addAll(batch.events());
        }

        @Override
        public void reset(Endpoint endpoint, String why) {
            events.add(null);
        }
    });
    Process python;

    @AfterEach
    void close() {
        subscriber.close();
        if (python != null) {
            python.destroyForcibly();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"array", "map"})
    void whatPythonPublishesInVllmsFormatIsReadAsSent(String encoding) throws Exception {
        python = new ProcessBuilder(PYTHON, PUBLISHER.toString(), "1", "kv-events", encoding, "0", "100")
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(python.getInputStream(), StandardCharsets.UTF_8));
        BufferedWriter in = new BufferedWriter(
                new OutputStreamWriter(python.getOutputStream(), StandardCharsets.UTF_8));
        String[] ready = out.readLine().split(" "); // ready PORT REPLAY_PORT
        assertThat(ready[0]).isEqualTo("ready");
        int port = Integer.parseInt(ready[1]);
        int replay = Integer.parseInt(ready[2]);
        Endpoint endpoint = new Endpoint("127.0.0.1", port);
        subscriber.subscribe(endpoint, new KvEventSubscriber.PublisherAddress("tcp://127.0.0.1:" + port,
                "tcp://127.0.0.1:" + replay, "kv-events"));
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).until(() -> {
            command(in, out, "{\"publish\": []}");
            return subscriber.counts(endpoint) != null && subscriber.counts(endpoint).messages() > 0;
        });

        command(in, out, "{\"publish\": [{\"stored\": [" + BIG + ", 7], \"parent\": 5, \"tokens\": [1, 2, 3, 4],"
                + " \"block_size\": 2, \"medium\": \"GPU\"}]}");
        command(in, out, "{\"lose\": [{\"removed\": [7], \"medium\": \"CPU\"}]}");
        command(in, out, "{\"publish\": [{\"cleared\": true}]}");

        await().atMost(Duration.ofSeconds(10)).until(() -> events.size() >= 3);
        assertThat(events).doesNotContainNull().hasSize(3);
        KvEvent.BlockStored stored = (KvEvent.BlockStored) events.get(0);
        assertThat(stored.blockHashes()).containsExactly(Long.parseUnsignedLong(BIG), 7L);
        assertThat(stored.parentHash()).isEqualTo(5L);
        assertThat(stored.tokenIds()).containsExactly(1, 2, 3, 4);
        assertThat(stored.blockSize()).isEqualTo(2);
        KvEvent.BlockRemoved removed = (KvEvent.BlockRemoved) events.get(1);
        assertThat(removed.blockHashes()).containsExactly(7L);
        assertThat(removed.medium()).isEqualTo(KvEvent.Medium.CPU);
        assertThat(events.get(2)).isInstanceOf(KvEvent.AllBlocksCleared.class);
        assertThat(subscriber.counts(endpoint).replayed()).isEqualTo(1);
    }

    private static String command(BufferedWriter in, BufferedReader out, String json) throws IOException {
        in.write(json);
        in.newLine();
        in.flush();
        return out.readLine();
    }
}
