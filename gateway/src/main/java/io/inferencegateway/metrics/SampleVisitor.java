package io.inferencegateway.metrics;

/**
 * Receives the samples of a Prometheus exposition from {@link PrometheusTextParser}. The parser asks about each
 * series by name first, so a visitor pays for labels and value only on the few series it reads.
 */
public interface SampleVisitor {

    /**
     * Decides from the metric name alone whether the sample is wanted.
     *
     * @param text       the exposition bytes
     * @param nameOffset where the metric name starts in {@code text}
     * @param nameLength length of the name in bytes
     * @param nameHash   {@code 31 * h + byte} over the name, equal to {@link String#hashCode()} for ASCII names
     * @return an id of the visitor's choosing (0 or more) that is handed back to {@link #sample}, or -1 to skip the
     *         line without reading its labels or value
     */
    int select(byte[] text, int nameOffset, int nameLength, int nameHash);

    /**
     * Every name {@link #select} can want, when the visitor knows them: the parser then gives up on a name at its
     * first byte that no wanted name has at that position, and skips the line without scanning the rest of the name
     * (most lines of an exposition are histogram buckets nobody asked for). Null, the default: every name is
     * scanned whole and handed to {@link #select}.
     */
    default MetricNameTable wantedNames() {
        return null;
    }

    /**
     * A wanted sample. {@code labels} is a view valid only during this call.
     *
     * @param id     what {@link #select} returned for the sample's name
     * @param labels the sample's labels, unescaped
     * @param value  the value; may be NaN or infinite
     */
    void sample(int id, Labels labels, double value);
}
