package io.inferencegateway.metrics;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/** Test visitor: keeps every selected sample as plain values, and remembers the names it was asked about. */
final class RecordingVisitor implements SampleVisitor {

    record Sample(String name, Map<String, String> labels, double value) {
    }

    private final Predicate<String> wanted;
    private MetricNameTable names;
    final List<String> offered = new ArrayList<>();
    final List<Sample> samples = new ArrayList<>();
    private final List<String> selectedNames = new ArrayList<>();

    RecordingVisitor(Predicate<String> wanted) {
        this.wanted = wanted;
    }

    static RecordingVisitor all() {
        return new RecordingVisitor(name -> true);
    }

    /** Wants exactly {@code names}, and tells the parser so through {@link #wantedNames()}. */
    static RecordingVisitor naming(String... names) {
        RecordingVisitor visitor = new RecordingVisitor(Set.of(names)::contains);
        visitor.names = new MetricNameTable(names);
        return visitor;
    }

    @Override
    public MetricNameTable wantedNames() {
        return names;
    }

    @Override
    public int select(byte[] text, int nameOffset, int nameLength, int nameHash) {
        String name = new String(text, nameOffset, nameLength, StandardCharsets.UTF_8);
        if (name.hashCode() != nameHash) {
            throw new AssertionError("hash of " + name + " is " + nameHash + ", String.hashCode is " + name.hashCode());
        }
        offered.add(name);
        if (!wanted.test(name)) {
            return -1;
        }
        selectedNames.add(name);
        return selectedNames.size() - 1;
    }

    @Override
    public void sample(int id, Labels labels, double value) {
        Map<String, String> copy = new LinkedHashMap<>();
        for (int i = 0; i < labels.size(); i++) {
            copy.put(labels.name(i), labels.value(i));
        }
        samples.add(new Sample(selectedNames.get(id), copy, value));
    }
}
