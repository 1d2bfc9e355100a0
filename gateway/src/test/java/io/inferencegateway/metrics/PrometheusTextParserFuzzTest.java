package io.inferencegateway.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Any bytes, read as a Prometheus exposition: nothing is thrown, and every line that a small regular-expression
 * reference finds well formed (a plain subset of the format: no escapes, no timestamp, a decimal value) gives the
 * parser's sample for that line, with the same name, labels and value; with the wanted names told to the parser
 * ({@link SampleVisitor#wantedNames()}) it gives the same samples for those names. The parser may read more lines than
 * the reference (escapes, timestamps, exponents). The corpus is in {@code PrometheusTextParserFuzzTestInputs/}.
 */
class PrometheusTextParserFuzzTest {

    private static final String LABEL = "[ \\t]*([a-zA-Z_][a-zA-Z0-9_]*)[ \\t]*=[ \\t]*\"([ !#-\\[\\]-~]*)\"[ \\t]*";
    private static final Pattern SAMPLE = Pattern.compile("[ \\t]*([a-zA-Z_:][a-zA-Z0-9_:]*)"
            + "(?:[ \\t]*\\{((?:" + LABEL + ",)*(?:" + LABEL + ")?)[ \\t]*\\}[ \\t]*|[ \\t]+)"
            + "([+-]?[0-9]{1,30}(?:\\.[0-9]{0,30})?|NaN|[+-]Inf)[ \\t]*");
    private static final Pattern ONE_LABEL = Pattern.compile(LABEL + ",?");

    record Sample(int line, String name, List<String> labels, double value) {
    }

    @FuzzTest(maxDuration = "2m")
    void agreesWithAReferenceOnWellFormedLines(byte[] text) {
        List<Sample> expected = reference(text);
        List<Sample> all = parse(text, null);
        assertThat(all).as("every well-formed line is read as the reference reads it").containsAll(expected);

        Set<String> names = new LinkedHashSet<>();
        expected.forEach(s -> names.add(s.name()));
        if (!names.isEmpty()) {
            List<Sample> named = parse(text, names);
            assertThat(named).as("told the names, the same samples of them")
                    .isEqualTo(all.stream().filter(s -> names.contains(s.name())).toList());
        }
    }

    /** The parser's samples, each with the index of the line it began on; the visitor wants all names, or these. */
    private static List<Sample> parse(byte[] text, Set<String> wanted) {
        List<Sample> samples = new ArrayList<>();
        int[] lineStarts = lineStarts(text);
        PrometheusTextParser.ParseStats stats = new PrometheusTextParser().parse(text, new SampleVisitor() {
            private final List<int[]> selected = new ArrayList<>();
            private final List<String> selectedNames = new ArrayList<>();

            @Override
            public MetricNameTable wantedNames() {
                return wanted == null ? null : new MetricNameTable(wanted.toArray(String[]::new));
            }

            @Override
            public int select(byte[] bytes, int nameOffset, int nameLength, int nameHash) {
                String name = new String(bytes, nameOffset, nameLength, StandardCharsets.ISO_8859_1);
                assertThat(nameHash).as("the name's hash").isEqualTo(name.hashCode());
                if (wanted != null && !wanted.contains(name)) {
                    return -1;
                }
                selected.add(new int[] {lineOf(lineStarts, nameOffset)});
                selectedNames.add(name);
                return selected.size() - 1;
            }

            @Override
            public void sample(int id, Labels labels, double value) {
                List<String> pairs = new ArrayList<>();
                for (int i = 0; i < labels.size(); i++) {
                    pairs.add(labels.name(i) + "=" + labels.value(i));
                }
                samples.add(new Sample(selected.get(id)[0], selectedNames.get(id), pairs, value));
            }
        });
        assertThat(stats.wanted()).isEqualTo(samples.size());
        assertThat(stats.wanted()).isLessThanOrEqualTo(stats.sampleLines());
        return samples;
    }

    /** The reference: each line (LF-separated, one CR before the LF dropped) matched whole by {@link #SAMPLE}. */
    static List<Sample> reference(byte[] text) {
        List<Sample> samples = new ArrayList<>();
        String[] lines = new String(text, StandardCharsets.ISO_8859_1).split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].endsWith("\r") ? lines[i].substring(0, lines[i].length() - 1) : lines[i];
            Matcher m = SAMPLE.matcher(line);
            if (!m.matches()) {
                continue;
            }
            List<String> labels = new ArrayList<>();
            if (m.group(2) != null) {
                Matcher l = ONE_LABEL.matcher(m.group(2));
                while (l.find()) {
                    labels.add(l.group(1) + "=" + l.group(2));
                }
            }
            String value = m.group(m.groupCount());
            double v = switch (value) {
                case "NaN" -> Double.NaN;
                case "+Inf" -> Double.POSITIVE_INFINITY;
                case "-Inf" -> Double.NEGATIVE_INFINITY;
                default -> Double.parseDouble(value);
            };
            samples.add(new Sample(i, m.group(1), labels, v));
        }
        return samples;
    }

    private static int[] lineStarts(byte[] text) {
        List<Integer> starts = new ArrayList<>(List.of(0));
        for (int i = 0; i < text.length; i++) {
            if (text[i] == '\n') {
                starts.add(i + 1);
            }
        }
        return starts.stream().mapToInt(Integer::intValue).toArray();
    }

    private static int lineOf(int[] lineStarts, int offset) {
        int line = 0;
        while (line + 1 < lineStarts.length && lineStarts[line + 1] <= offset) {
            line++;
        }
        return line;
    }
}
