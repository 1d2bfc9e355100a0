package io.inferencegateway.monitoring;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A Prometheus text exposition, read just enough for tests: each family's type and the samples. */
record Exposition(Map<String, String> types, List<Sample> samples) {

    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"(?:[^\"\\\\]|\\\\.)*\"");

    /** One sample line: its series name, the label text between the braces (or empty) and its value. */
    record Sample(String name, String labels, double value) {
    }

    static Exposition parse(String text) {
        Map<String, String> types = new HashMap<>();
        List<Sample> samples = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (line.startsWith("# TYPE ")) {
                String[] f = line.split(" ");
                types.put(f[2], f[3]);
            } else if (!line.isBlank() && !line.startsWith("#")) {
                int brace = line.indexOf('{');
                int space = line.indexOf(' ');
                String name;
                String labels = "";
                int valueFrom;
                if (brace >= 0 && brace < space) {
                    name = line.substring(0, brace);
                    int close = line.lastIndexOf('}');
                    labels = line.substring(brace + 1, close);
                    valueFrom = close + 1;
                } else {
                    name = line.substring(0, space);
                    valueFrom = space;
                }
                String[] rest = line.substring(valueFrom).trim().split(" ");
                samples.add(new Sample(name, labels, Double.parseDouble(rest[0])));
            }
        }
        return new Exposition(types, samples);
    }

    Set<String> seriesNames() {
        Set<String> names = new TreeSet<>();
        samples.forEach(s -> names.add(s.name()));
        return names;
    }

    /** The label names the series {@code name} carries, over all its samples. */
    Set<String> labelNames(String name) {
        Set<String> names = new TreeSet<>();
        for (Sample s : samples) {
            if (s.name().equals(name)) {
                Matcher m = LABEL.matcher(s.labels());
                while (m.find()) {
                    names.add(m.group(1));
                }
            }
        }
        return names;
    }

    /** The sum of every sample of the series {@code name} (0 when there is none). */
    double sum(String name) {
        return samples.stream().filter(s -> s.name().equals(name)).mapToDouble(Sample::value).sum();
    }

    /** Null when {@code name} is an exported series, else why it is not. */
    String problemWith(String name) {
        for (String suffix : List.of("_bucket", "_sum", "_count")) {
            if (name.endsWith(suffix)) {
                String family = name.substring(0, name.length() - suffix.length());
                String type = types.get(family);
                boolean fits = "histogram".equals(type) || "summary".equals(type) && !suffix.equals("_bucket");
                if (type != null && !fits) {
                    return family + " is a " + type + ", not a histogram";
                }
            }
        }
        if (seriesNames().contains(name)) {
            return null;
        }
        if ("histogram".equals(types.get(name))) {
            return "a histogram: query its _bucket, _sum or _count";
        }
        return "not exported";
    }
}
