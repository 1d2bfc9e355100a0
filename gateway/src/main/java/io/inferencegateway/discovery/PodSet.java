package io.inferencegateway.discovery;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The pods of one pool as the watch and the periodic list (the resync) report them, merged so that older
 * news never overwrites newer news.
 *
 * <p>Every watch event gets the next sequence number. A resync takes a ticket (the sequence number) before
 * it lists; when the list arrives, a pod the watch reported after the ticket keeps the watch's state, and
 * every other pod takes the list's: listed pods are set, unlisted ones dropped. A deleted pod is remembered
 * until a resync that began after its deletion, so that a list taken earlier cannot bring it back.
 *
 * <p>Not thread-safe: {@link DiscoveredPool} serialises the calls.
 */
final class PodSet {

    /** What a resync did: whether the serving IPs changed, and how many pods the list had to correct. */
    record ResyncResult(boolean changed, int corrected) {
    }

    /** One pod: its IP when serving (else null), the sequence number of the news, and whether it is gone. */
    private record Known(String servingIp, long seq, boolean deleted) {
    }

    private final TreeMap<String, Known> pods = new TreeMap<>();
    private long seq;
    private int resyncs;

    /** A watch event said the pod exists (ADDED or MODIFIED); true when the serving IPs changed. */
    boolean put(String name, String servingIp) {
        Known before = pods.put(name, new Known(servingIp, ++seq, false));
        return !Objects.equals(ipOf(before), servingIp);
    }

    /** A watch event said the pod is gone; true when the serving IPs changed. */
    boolean delete(String name) {
        Known before = pods.put(name, new Known(null, ++seq, true));
        return ipOf(before) != null;
    }

    /** Call before listing the pods; pass the result to {@link #resync}. */
    long beginResync() {
        return seq;
    }

    /**
     * Applies a list of the pool's pods (name to serving IP, null when not serving) that was requested when
     * {@code ticket} was taken.
     */
    ResyncResult resync(long ticket, Map<String, String> listed) {
        List<String> before = servingIps();
        int corrected = 0;
        for (Map.Entry<String, String> pod : listed.entrySet()) {
            Known known = pods.get(pod.getKey());
            if (known != null && known.seq() > ticket) {
                continue; // the watch spoke after the list was asked for
            }
            if (known == null || known.deleted() || !Objects.equals(known.servingIp(), pod.getValue())) {
                corrected++;
                pods.put(pod.getKey(), new Known(pod.getValue(), ticket, false));
            }
        }
        for (Iterator<Map.Entry<String, Known>> it = pods.entrySet().iterator(); it.hasNext();) {
            Map.Entry<String, Known> entry = it.next();
            Known known = entry.getValue();
            if (listed.containsKey(entry.getKey()) || known.seq() > ticket) {
                continue;
            }
            if (!known.deleted()) {
                corrected++;
            }
            it.remove(); // gone from the list, and no newer news: gone (a deleted pod's memory ends here)
        }
        resyncs++;
        return new ResyncResult(!before.equals(servingIps()), corrected);
    }

    /** Serving pod IPs, ordered by pod name. */
    List<String> servingIps() {
        List<String> ips = new ArrayList<>();
        for (Known known : pods.values()) {
            if (known.servingIp() != null) {
                ips.add(known.servingIp());
            }
        }
        return ips;
    }

    /** How many resyncs have been applied. */
    int resyncs() {
        return resyncs;
    }

    /** Pods remembered, including deleted ones not yet confirmed gone by a resync. */
    int remembered() {
        return pods.size();
    }

    private static String ipOf(Known known) {
        return known == null ? null : known.servingIp();
    }
}
