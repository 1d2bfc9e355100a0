package io.inferencegateway.domain;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A map in order of last use that drops its least recently used entry beyond its capacity: one stripe of the
 * gateway's bounded tables (sessions' pods, conversations' versions), each used under its own lock. Not thread-safe.
 */
public class BoundedLruMap<K, V> extends LinkedHashMap<K, V> {

    private final int capacity;

    public BoundedLruMap(int capacity) {
        super(16, 0.75f, true);
        this.capacity = capacity;
    }

    @Override
    protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
        return size() > capacity;
    }
}
