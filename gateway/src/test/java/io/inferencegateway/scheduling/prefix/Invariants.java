package io.inferencegateway.scheduling.prefix;

import static io.inferencegateway.scheduling.prefix.EntryPool.NONE;

import java.util.ArrayList;
import java.util.List;

import io.inferencegateway.domain.Endpoint;

/** Walks every structure of a {@link PrefixIndex} and fails when two of them disagree. O(size). */
final class Invariants {

    private Invariants() {
    }

    static void check(PrefixIndex index) {
        synchronized (index) {
            EntryPool entries = index.entries;
            ProbeTables tables = index.tables;
            int live = 0;
            for (int s = 0; s < index.slotHighWater; s++) {
                if (index.endpointOf[s] == null) {
                    continue;
                }
                int n = 0;
                int prev = NONE;
                for (int e = index.lruHead[s]; e != NONE; e = entries.lruNext(e)) {
                    check(entries.owner(e) == s, "entry in the wrong endpoint list");
                    check(entries.lruPrev(e) == prev, "broken LRU back link");
                    check(tables.findPair(entries.hash(e), s) == e, "entry missing from the pair table");
                    check(tables.findBlock(entries.hash(e)) != NONE, "entry's block missing from the block table");
                    prev = e;
                    n++;
                }
                check(index.lruTail[s] == prev, "LRU tail");
                check(n == index.count[s], "endpoint count " + index.count[s] + " but " + n + " entries");
                check(n <= index.blocksPerEndpoint, "endpoint over its capacity");
                check(index.slotOf.get(index.endpointOf[s]) == s, "slot map");
                live += n;
            }
            check(live == entries.used, "used " + entries.used + " but " + live + " live entries");
            check(entries.used <= index.maxEntries, "over the global bound");
            int holders = 0;
            for (int pos = 0; pos < tables.size(); pos++) {
                if (!tables.blockAt(pos)) {
                    continue;
                }
                int first = tables.firstHolder(pos);
                int n = 0;
                for (int e = first; e != NONE; e = entries.holderNext(e)) {
                    check(entries.hash(e) == entries.hash(first), "holder with another hash");
                    n++;
                }
                check(n == tables.holders(pos), "holder count");
                holders += n;
            }
            check(holders == entries.used, "holders " + holders + " but used " + entries.used);
        }
    }

    /** The endpoint's blocks in LRU order, least recent first. */
    static List<Long> lruOrder(PrefixIndex index, Endpoint endpoint) {
        synchronized (index) {
            List<Long> order = new ArrayList<>();
            Integer slot = index.slotOf.get(endpoint);
            for (int e = slot == null ? NONE : index.lruTail[slot]; e != NONE; e = index.entries.lruPrev(e)) {
                order.add(index.entries.hash(e));
            }
            return order;
        }
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            throw new AssertionError("prefix index broken: " + what);
        }
    }
}
