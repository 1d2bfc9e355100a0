package io.inferencegateway.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The table the session table and the sticky versions are made of: bounded, least recently used out, idle gone. */
class BoundedLruTableTest {

    static final long IDLE = 100;

    /** Keys that land in one stripe (their top bits equal), in order. */
    static List<Long> sameStripe(int count) {
        List<Long> keys = new ArrayList<>();
        for (long k = 1; keys.size() < count; k++) {
            keys.add(k); // the top bits of small keys are all zero
        }
        return keys;
    }

    @ParameterizedTest(name = "capacity {0}")
    @ValueSource(ints = {1, 3, 16, 17, 100, 1000})
    void holdsExactlyItsCapacityWhenFull(int capacity) {
        BoundedLruTable<String> t = new BoundedLruTable<>(capacity, IDLE);
        for (long i = 0; i < 20L * capacity + 100; i++) {
            t.put(i * 0x9E3779B97F4A7C15L, "v", 0);
        }
        assertThat(t.size(0)).isEqualTo(capacity);
    }

    @Test
    void pushesOutTheLeastRecentlyUsedKeyOfItsStripe() {
        BoundedLruTable<String> t = new BoundedLruTable<>(32, IDLE); // 16 stripes of 2
        List<Long> keys = sameStripe(3);
        t.put(keys.get(0), "a", 0);
        t.put(keys.get(1), "b", 1);
        t.get(keys.get(0), 2); // a used again: b is now the least recently used

        t.put(keys.get(2), "c", 3);

        assertThat(t.get(keys.get(0), 4)).isEqualTo("a");
        assertThat(t.get(keys.get(1), 4)).isNull();
        assertThat(t.get(keys.get(2), 4)).isEqualTo("c");
    }

    @Test
    void aKeyUnusedForTheIdleTimeIsGoneAndAUseKeepsItLonger() {
        BoundedLruTable<String> t = new BoundedLruTable<>(10, IDLE);
        t.put(1, "a", 0);
        t.put(2, "b", 0);

        assertThat(t.get(2, 50)).isEqualTo("b");
        assertThat(t.size(99)).isEqualTo(2);
        assertThat(t.size(100)).as("a unused for the idle time").isEqualTo(1);
        assertThat(t.get(1, 100)).isNull();
        assertThat(t.get(2, 149)).isEqualTo("b");
        assertThat(t.get(2, 249)).isNull();
    }

    @Test
    void aPeekIsNoUse() {
        BoundedLruTable<String> t = new BoundedLruTable<>(10, IDLE);
        t.put(1, "a", 0);

        assertThat(t.peek(1)).isEqualTo("a");
        assertThat(t.peek(2)).isNull();
        assertThat(t.get(1, 100)).as("the peek did not make it recent").isNull();
    }

    @Test
    void refusesAnEmptyTableOrNoIdleTime() {
        assertThatThrownBy(() -> new BoundedLruTable<>(0, IDLE)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new BoundedLruTable<>(1, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void tellsOfEveryValueThatGoesOtherThanByAPutOverItsKey() {
        List<String> gone = new ArrayList<>();
        BoundedLruTable<String> t = new BoundedLruTable<>(32, IDLE, gone::add); // 16 stripes of 2
        List<Long> keys = sameStripe(4);
        t.put(keys.get(0), "a", 0);
        t.put(keys.get(1), "b", 0);
        t.put(keys.get(0), "a2", 1); // over its key: the old value is the caller's
        t.put(keys.get(2), "c", 2); // pushes out b, the least recently used
        assertThat(gone).containsExactly("b");

        assertThat(t.get(keys.get(0), 1 + IDLE)).as("idle when read").isNull();
        t.put(keys.get(3), "d", 2 + IDLE); // c went idle at the stripe's head
        assertThat(gone).containsExactly("b", "a2", "c");
        assertThat(t.size(2 + IDLE)).isEqualTo(1);
    }
}
