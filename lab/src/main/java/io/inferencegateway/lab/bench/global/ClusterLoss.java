package io.inferencegateway.lab.bench.global;

import java.util.Locale;

/** How the {@code global} scenario loses a cluster ({@code bench --cluster-loss}). */
public enum ClusterLoss {
    /** Its gateway process gets SIGKILL: the link still accepts, and each connection is reset once it finds no one. */
    KILL,
    /** The link is cut with resets: open connections reset, new ones refused. */
    RESET,
    /** The link is cut silently: connections accepted, nothing crosses; the tier waits for its own timeouts. */
    BLACKHOLE;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static ClusterLoss fromLabel(String label) {
        for (ClusterLoss l : values()) {
            if (l.label().equals(label)) {
                return l;
            }
        }
        throw new IllegalArgumentException("unknown cluster loss '" + label + "'; known: kill, reset, blackhole");
    }
}
