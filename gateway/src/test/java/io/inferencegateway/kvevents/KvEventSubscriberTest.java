package io.inferencegateway.kvevents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.EndpointRole;
import io.inferencegateway.simulator.KvEventPublisher;
import io.inferencegateway.simulator.KvEventPublisher.Encoding;

/**
 * The subscription to an engine's KV events over real ZeroMQ sockets, against the simulator's publisher (vLLM's
 * framing, PUB and ROUTER replay): both encodings, a gap the replay fills, a gap older than the replay's buffer, a
 * publisher without a replay socket, a publisher that restarted, a frame that does not decode, and a data-parallel
 * pod whose two ranks publish on two ports.
 */
class KvEventSubscriberTest {

    static final Duration ARRIVES = Duration.ofSeconds(10);

    /**
     * What the listener heard, in order: "batch <port> <rank> <first event's first hash>" or "reset <port>"; the empty
     * batches that probe a subscription only mark its port as connected.
     */
    final List<String> heard = Collections.synchronizedList(new ArrayList<>());
    final Set<Integer> connected = ConcurrentHashMap.newKeySet();
    final KvEventSubscriber subscriber = new KvEventSubscriber(new KvEventSubscriber.KvEventListener() {
        @Override
        public void batch(Endpoint endpoint, KvEventBatch batch) {
            if (batch.events().isEmpty()) {
                connected.add(endpoint.port());
            } else {
                heard.add("batch " + endpoint.port() + " " + batch.dataParallelRank() + " " + first(batch));
            }
        }

        @Override
        public void reset(Endpoint endpoint, String why) {
            heard.add("reset " + endpoint.port());
        }
    });
    final List<KvEventPublisher> publishers = new ArrayList<>();

    @AfterEach
    void close() {
        subscriber.close();
        publishers.forEach(KvEventPublisher::close);
    }

    @ParameterizedTest
    @EnumSource(Encoding.class)
    void aGapIsFilledByTheReplayInOrder(Encoding encoding) throws IOException {
        Pod pod = pod(encoding, true, 100, 0);
        pod.publisher.publish(stored(1));
        pod.publisher.lose(stored(2));
        pod.publisher.lose(stored(3));
        pod.publisher.publish(stored(4));

        await().atMost(ARRIVES).untilAsserted(() -> assertThat(heard)
                .containsExactly(pod.batch(1), pod.batch(2), pod.batch(3), pod.batch(4)));
        KvEventSubscriber.SubscriptionCounts counts = subscriber.counts(pod.endpoint);
        assertThat(counts.gaps()).isEqualTo(1);
        assertThat(counts.replayed()).isEqualTo(2);
        assertThat(counts.resets()).isZero();
    }

    @Test
    void aGapOlderThanTheReplaysBufferStartsTheEndpointOver() throws IOException {
        Pod pod = pod(Encoding.MAP, true, 1, 0);
        pod.publisher.lose(stored(2));
        pod.publisher.lose(stored(3));
        pod.publisher.publish(stored(4));

        await().atMost(ARRIVES).untilAsserted(() -> assertThat(heard)
                .containsExactly("reset " + pod.endpoint.port(), pod.batch(4)));
    }

    @Test
    void aGapWithoutAReplaySocketStartsTheEndpointOver() throws IOException {
        Pod pod = pod(Encoding.ARRAY, false, 0, 0);
        pod.publisher.lose(stored(2));
        pod.publisher.publish(stored(3));

        await().atMost(ARRIVES).untilAsserted(() -> assertThat(heard)
                .containsExactly("reset " + pod.endpoint.port(), pod.batch(3)));
    }

    @Test
    void aRestartedPublisherVoidsWhatItSaidAndABrokenFrameIsDroppedAlone() throws IOException {
        Pod pod = pod(Encoding.MAP, true, 100, 0);
        pod.publisher.publish(stored(1));
        pod.publisher.send("not msgpack at all".getBytes());
        pod.publisher.publish(stored(2));
        pod.publisher.restart();
        pod.publisher.publish(stored(3));

        await().atMost(ARRIVES).untilAsserted(() -> assertThat(heard)
                .containsExactly(pod.batch(1), pod.batch(2), "reset " + pod.endpoint.port(), pod.batch(3)));
        assertThat(subscriber.counts(pod.endpoint).undecodable()).isEqualTo(1);
    }

    @Test
    void eachRankOfADataParallelPodIsAnEndpointOfItsOwn() throws IOException {
        Pod rank0 = pod(Encoding.MAP, false, 0, 0);
        Pod rank1 = pod(Encoding.ARRAY, false, 0, 1);
        rank0.publisher.publish(stored(10));
        rank1.publisher.publish(stored(20));

        await().atMost(ARRIVES).untilAsserted(() -> assertThat(heard)
                .containsExactlyInAnyOrder(rank0.batch(10), rank1.batch(20)));
    }

    /** A publisher subscribed to, once its first (empty) batches come through: a SUB socket misses what precedes it. */
    private Pod pod(Encoding encoding, boolean replay, int buffer, int rank) throws IOException {
        KvEventPublisher publisher = new KvEventPublisher(replay, "kv-events", encoding, rank, Math.max(buffer, 1));
        publishers.add(publisher);
        int port = publisher.port();
        Endpoint endpoint = new Endpoint("127.0.0.1", port, rank, EndpointRole.BOTH);
        subscriber.subscribe(endpoint, new KvEventSubscriber.PublisherAddress(publisher.address(),
                publisher.replayAddress(), "kv-events"));
        await().atMost(ARRIVES).pollInSameThread().pollInterval(Duration.ofMillis(50)).until(() -> {
            publisher.publish(List.of());
            return connected.contains(port);
        });
        return new Pod(publisher, endpoint, rank);
    }

    record Pod(KvEventPublisher publisher, Endpoint endpoint, int rank) {
        String batch(long hash) {
            return "batch " + endpoint.port() + " " + rank + " " + hash;
        }
    }

    static List<KvEventPublisher.Event> stored(long hash) {
        return List.of(new KvEventPublisher.Stored(new long[] {hash}, null, new int[] {1, 2}, 2, "GPU"));
    }

    static String first(KvEventBatch batch) {
        return batch.events().get(0) instanceof KvEvent.BlockStored s ? String.valueOf(s.blockHashes()[0]) : "other";
    }
}
