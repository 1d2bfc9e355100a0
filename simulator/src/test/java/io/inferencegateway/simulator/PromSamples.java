package io.inferencegateway.simulator;

import java.util.LinkedHashMap;
import java.util.Map;

/** Test helper: the samples of a Prometheus text body, keyed by "name{labels}" exactly as printed. */
final class PromSamples {

    private final Map<String, Double> samples = new LinkedHashMap<>();

    PromSamples(String text) {
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int space = line.lastIndexOf(' ');
            samples.put(line.substring(0, space), Double.parseDouble(line.substring(space + 1)));
        }
    }

    /** Value of the first sample whose series starts with {@code prefix} (a name, or a name and labels). */
    double value(String prefix) {
        for (Map.Entry<String, Double> e : samples.entrySet()) {
            String k = e.getKey();
            if (k.equals(prefix) || k.startsWith(prefix + "{") || (prefix.contains("{") && k.startsWith(prefix))) {
                return e.getValue();
            }
        }
        throw new AssertionError("no sample " + prefix);
    }

    /** Value of the sample whose series contains every fragment. */
    double value(String name, String... fragments) {
        outer:
        for (Map.Entry<String, Double> e : samples.entrySet()) {
            if (!e.getKey().startsWith(name + "{")) {
                continue;
            }
            for (String f : fragments) {
                if (!e.getKey().contains(f)) {
                    continue outer;
                }
            }
            return e.getValue();
        }
        throw new AssertionError("no sample " + name + " with " + String.join(",", fragments));
    }

    Map<String, Double> all() {
        return samples;
    }
}
