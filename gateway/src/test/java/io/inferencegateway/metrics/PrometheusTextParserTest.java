package io.inferencegateway.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import io.inferencegateway.metrics.RecordingVisitor.Sample;

class PrometheusTextParserTest {

    static Stream<Arguments> wellFormedLines() {
        return Stream.of(
                Arguments.of("no labels", "up 1\n", new Sample("up", Map.of(), 1.0)),
                Arguments.of("labels", "q{a=\"x\",b=\"y\"} 3.5\n", new Sample("q", Map.of("a", "x", "b", "y"), 3.5)),
                Arguments.of("empty label set", "q{} 2\n", new Sample("q", Map.of(), 2.0)),
                Arguments.of("trailing comma and blanks", "q{ a = \"x\" , } 2\n", new Sample("q", Map.of("a", "x"), 2.0)),
                Arguments.of("escaped quote", "q{a=\"say \\\"hi\\\"\"} 1\n", new Sample("q", Map.of("a", "say \"hi\""), 1.0)),
                Arguments.of("escaped backslash", "q{a=\"C:\\\\dir\"} 1\n", new Sample("q", Map.of("a", "C:\\dir"), 1.0)),
                Arguments.of("escaped newline", "q{a=\"one\\ntwo\"} 1\n", new Sample("q", Map.of("a", "one\ntwo"), 1.0)),
                Arguments.of("unknown escape kept", "q{a=\"tab\\t\"} 1\n", new Sample("q", Map.of("a", "tab\\t"), 1.0)),
                Arguments.of("escapes in two labels", "q{a=\"\\\\\",b=\"\\\"\"} 1\n", new Sample("q", Map.of("a", "\\", "b", "\""), 1.0)),
                Arguments.of("utf-8 value", "q{a=\"Grüße ✓\"} 1\n", new Sample("q", Map.of("a", "Grüße ✓"), 1.0)),
                Arguments.of("brace and comma inside value", "q{a=\"{x,y}\"} 1\n", new Sample("q", Map.of("a", "{x,y}"), 1.0)),
                Arguments.of("colon in name", "vllm:num_requests_waiting{engine=\"0\"} 3.0\n",
                        new Sample("vllm:num_requests_waiting", Map.of("engine", "0"), 3.0)),
                Arguments.of("exponent", "q 1.7886264546318772e+09\n", new Sample("q", Map.of(), 1.7886264546318772e+09)),
                Arguments.of("upper-case exponent", "q 2E-3\n", new Sample("q", Map.of(), 0.002)),
                Arguments.of("negative", "q -12.5\n", new Sample("q", Map.of(), -12.5)),
                Arguments.of("explicit plus", "q +7\n", new Sample("q", Map.of(), 7.0)),
                Arguments.of("leading dot", "q .5\n", new Sample("q", Map.of(), 0.5)),
                Arguments.of("NaN", "q NaN\n", new Sample("q", Map.of(), Double.NaN)),
                Arguments.of("+Inf", "q +Inf\n", new Sample("q", Map.of(), Double.POSITIVE_INFINITY)),
                Arguments.of("-Inf", "q -Inf\n", new Sample("q", Map.of(), Double.NEGATIVE_INFINITY)),
                Arguments.of("le=+Inf bucket", "h_bucket{le=\"+Inf\"} 140\n", new Sample("h_bucket", Map.of("le", "+Inf"), 140.0)),
                Arguments.of("timestamp", "q{a=\"x\"} 4 1712345678901\n", new Sample("q", Map.of("a", "x"), 4.0)),
                Arguments.of("negative timestamp", "q 4 -5\n", new Sample("q", Map.of(), 4.0)),
                Arguments.of("value right after the closing brace", "q{a=\"x\"}5\n", new Sample("q", Map.of("a", "x"), 5.0)),
                Arguments.of("blank between name and labels", "q {a=\"x\"} 5\n", new Sample("q", Map.of("a", "x"), 5.0)),
                Arguments.of("tabs and extra blanks", "q\t{a=\"x\"}\t  5  \t\n", new Sample("q", Map.of("a", "x"), 5.0)),
                Arguments.of("leading blanks", "   q 5\n", new Sample("q", Map.of(), 5.0)),
                Arguments.of("CRLF", "q 5\r\n", new Sample("q", Map.of(), 5.0)),
                Arguments.of("CRLF after timestamp", "q 5 1000\r\n", new Sample("q", Map.of(), 5.0)),
                Arguments.of("no trailing newline", "q 5", new Sample("q", Map.of(), 5.0)),
                Arguments.of("no trailing newline after labels and timestamp", "q{a=\"x\"} 5 99",
                        new Sample("q", Map.of("a", "x"), 5.0)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("wellFormedLines")
    void readsWellFormedLine(String scenario, String text, Sample expected) {
        RecordingVisitor visitor = RecordingVisitor.all();
        PrometheusTextParser.ParseStats stats = parse(text, visitor);

        assertThat(stats.garbageLines()).isZero();
        assertThat(visitor.samples).hasSize(1);
        Sample actual = visitor.samples.get(0);
        assertThat(actual.name()).isEqualTo(expected.name());
        assertThat(actual.labels()).isEqualTo(expected.labels());
        assertThat(Double.valueOf(actual.value())).isEqualTo(Double.valueOf(expected.value()));
    }

    static Stream<Arguments> garbageLines() {
        return Stream.of(
                Arguments.of("value missing", "q\n", 1),
                Arguments.of("value missing after labels", "q{a=\"x\"}\n", 1),
                Arguments.of("value not a number", "q abc\n", 1),
                Arguments.of("value with junk", "q 12x\n", 1),
                Arguments.of("lone sign", "q -\n", 1),
                Arguments.of("exponent without digits", "q 1e\n", 1),
                Arguments.of("two dots", "q 1.2.3\n", 1),
                Arguments.of("unterminated label value", "q{a=\"x} 5\n", 1),
                Arguments.of("raw newline inside label value", "q{a=\"x\n\"} 5\n", 2), // both halves are garbage
                Arguments.of("label without quotes", "q{a=x} 5\n", 1),
                Arguments.of("label without value", "q{a} 5\n", 1),
                Arguments.of("label name starting with digit", "q{1a=\"x\"} 5\n", 1),
                Arguments.of("missing comma between labels", "q{a=\"x\" b=\"y\"} 5\n", 1),
                Arguments.of("unclosed label set", "q{a=\"x\" 5\n", 1),
                Arguments.of("timestamp not an integer", "q 5 1.5\n", 1),
                Arguments.of("token after timestamp", "q 5 100 extra\n", 1),
                Arguments.of("starts with brace", "{a=\"x\"} 5\n", 1),
                Arguments.of("starts with digit", "9lives 5\n", 1),
                Arguments.of("starts with dash", "- 5\n", 1));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("garbageLines")
    void skipsAndCountsGarbageLineThenReadsTheNextOne(String scenario, String garbage, int garbageLines) {
        RecordingVisitor visitor = RecordingVisitor.all();
        PrometheusTextParser.ParseStats stats = parse("before 1\n" + garbage + "after 2\n", visitor);

        assertThat(stats.garbageLines()).isEqualTo(garbageLines);
        assertThat(visitor.samples).extracting(Sample::name, Sample::value)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("before", 1.0),
                        org.assertj.core.groups.Tuple.tuple("after", 2.0));
    }

    @Test
    void skipsCommentsAndBlankLines() {
        String text = "# HELP q Help text with \"quotes\" and \\ backslash\n"
                + "# TYPE q gauge\n"
                + "#just a comment\n"
                + "\n"
                + "   \n"
                + "\r\n"
                + "q 1\n";
        RecordingVisitor visitor = RecordingVisitor.all();

        PrometheusTextParser.ParseStats stats = parse(text, visitor);

        assertThat(stats).isEqualTo(new PrometheusTextParser.ParseStats(1, 1, 0));
        assertThat(visitor.offered).containsExactly("q");
    }

    @Test
    void unwantedLinesAreNeitherReadNorChecked() {
        String text = "a{x=\"1\"} 1\n"
                + "b{broken 2\n" // malformed, but skipped by name before its labels are read
                + "a{x=\"2\"} 3\n";
        RecordingVisitor visitor = new RecordingVisitor("a"::equals);

        PrometheusTextParser.ParseStats stats = parse(text, visitor);

        assertThat(visitor.offered).containsExactly("a", "b", "a");
        assertThat(visitor.samples).extracting(Sample::value).containsExactly(1.0, 3.0);
        assertThat(stats).isEqualTo(new PrometheusTextParser.ParseStats(3, 2, 0));
    }

    @Test
    void parsesOnlyTheGivenRangeOfTheArray() {
        byte[] text = "junk junk\nq 7\nmore junk".getBytes(StandardCharsets.UTF_8);
        RecordingVisitor visitor = RecordingVisitor.all();

        PrometheusTextParser.ParseStats stats = new PrometheusTextParser().parse(text, 10, 4, visitor);

        assertThat(stats.garbageLines()).isZero();
        assertThat(visitor.samples).extracting(Sample::name, Sample::value)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("q", 7.0));
    }

    @Test
    void findsEveryLineWhateverItsLengthAndAlignment() {
        Random random = new Random(7);
        StringBuilder text = new StringBuilder();
        List<Double> expected = new java.util.ArrayList<>();
        for (int line = 0; line < 2_000; line++) {
            boolean wanted = random.nextBoolean();
            String padding = "x".repeat(random.nextInt(40));
            text.append(wanted ? "want" : "skip").append("{p=\"").append(padding).append("\"} ").append(line)
                    .append(random.nextInt(4) == 0 ? "\r\n" : "\n");
            if (wanted) {
                expected.add((double) line);
            }
        }
        text.setLength(text.length() - 1); // last line without its newline
        RecordingVisitor visitor = new RecordingVisitor("want"::equals);

        PrometheusTextParser.ParseStats stats = parse(text.toString(), visitor);

        assertThat(stats.garbageLines()).isZero();
        assertThat(visitor.samples).extracting(Sample::value).containsExactlyElementsOf(expected);
    }

    @Test
    void aSkippedLineEndsAtTheEndOfTheRangeNotAtANewlineBeyondIt() {
        byte[] text = bytes("skip 1\nwant 2\n");
        RecordingVisitor visitor = new RecordingVisitor("want"::equals);

        new PrometheusTextParser().parse(text, 0, 5, visitor); // "skip " only

        assertThat(visitor.offered).containsExactly("skip");
        assertThat(visitor.samples).isEmpty();
    }

    @Test
    void rejectsRangeOutsideTheArray() {
        assertThatThrownBy(() -> new PrometheusTextParser().parse(new byte[4], 2, 3, RecordingVisitor.all()))
                .isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void emptyInputHasNoSamples() {
        assertThat(parse("", RecordingVisitor.all())).isEqualTo(new PrometheusTextParser.ParseStats(0, 0, 0));
    }

    @Test
    void parserInstanceCanBeReused() {
        PrometheusTextParser parser = new PrometheusTextParser();
        RecordingVisitor first = RecordingVisitor.all();
        RecordingVisitor second = RecordingVisitor.all();

        parser.parse(bytes("q{a=\"\\\"x\\\"\",b=\"1\",c=\"2\",d=\"3\",e=\"4\",f=\"5\",g=\"6\",h=\"7\",i=\"8\",j=\"9\"} 1\n"), first);
        parser.parse(bytes("r{z=\"only\"} 2\n"), second);

        assertThat(first.samples.get(0).labels()).hasSize(10).containsEntry("a", "\"x\"").containsEntry("j", "9");
        assertThat(second.samples.get(0).labels()).isEqualTo(Map.of("z", "only"));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"vllm-0.10-metrics.txt", "vllm-0.10-full-metrics.txt", "sglang-0.5-metrics.txt",
            "tgi-3-metrics.txt", "trtllm-serve-metrics.txt", "llamacpp-metrics-busy.txt"})
    void readsEveryLineOfEachFixture(String fixture) throws IOException {
        byte[] text = fixture(fixture);
        long expectedSamples = new String(text, StandardCharsets.UTF_8).lines()
                .filter(line -> !line.isBlank() && !line.startsWith("#"))
                .count();
        RecordingVisitor visitor = RecordingVisitor.all();

        PrometheusTextParser.ParseStats stats = new PrometheusTextParser().parse(text, visitor);

        assertThat(stats.garbageLines()).isZero();
        assertThat(stats.sampleLines()).isEqualTo(expectedSamples);
        assertThat(visitor.samples).hasSize((int) expectedSamples);
    }

    /** Every line end found, wherever it falls in the bytes the parser looks at together, past UTF-8 too. */
    @Test
    void findsEveryLineEndAfterSkippedAndUtf8Lines() {
        StringBuilder text = new StringBuilder();
        List<RecordingVisitor.Sample> expected = new ArrayList<>();
        for (int k = 0; k < 100; k++) {
            String value = "é".repeat(k % 3) + "x".repeat(k);
            text.append("# HELP skipped ").append("h".repeat(k)).append('\n');
            text.append("skipped_").append("s".repeat(k)).append(" 1\n");
            text.append("m{l=\"").append(value).append("\"} ").append(k).append('\n');
            expected.add(new RecordingVisitor.Sample("m", Map.of("l", value), k));
        }
        RecordingVisitor visitor = RecordingVisitor.naming("m");

        PrometheusTextParser.ParseStats stats = new PrometheusTextParser().parse(bytes(text.toString()), visitor);

        assertThat(visitor.samples).isEqualTo(expected);
        assertThat(stats.garbageLines()).isZero();
    }

    /** Giving up on a name at its first byte no wanted name has there must change nothing but the work done. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"vllm-0.10-metrics.txt", "vllm-0.10-full-metrics.txt", "sglang-0.5-metrics.txt",
            "tgi-3-metrics.txt", "trtllm-serve-metrics.txt", "llamacpp-metrics-busy.txt"})
    void givingUpOnUnwantedNamesEarlyReadsTheSameSamples(String fixture) throws IOException {
        String[] wanted = {"vllm:num_requests_waiting", "vllm:kv_cache_usage_perc", "vllm:lora_requests_info",
                "sglang:num_queue_reqs", "tgi_queue_size", "trtllm_kv_cache_utilization", "llamacpp:requests_processing",
                "q"};
        String nearMisses = "vllm:num_requests_waitingX{engine=\"0\"} 1\nvllm:num_requests_waitin 2\n"
                + "vllm:num_requests_waiting{engine=\"1\"} oops\nvllm:kv_cache_usage_perc_of_a_name_longer_than_any 4\n"
                + "q 5\nqq 6\n";
        byte[] text = (new String(fixture(fixture), StandardCharsets.UTF_8) + nearMisses).getBytes(StandardCharsets.UTF_8);
        RecordingVisitor scanning = new RecordingVisitor(Set.of(wanted)::contains);
        RecordingVisitor early = RecordingVisitor.naming(wanted);

        PrometheusTextParser.ParseStats whole = new PrometheusTextParser().parse(text, scanning);
        PrometheusTextParser.ParseStats cut = new PrometheusTextParser().parse(text, early);

        assertThat(cut).isEqualTo(whole);
        assertThat(early.samples).isEqualTo(scanning.samples).isNotEmpty();
        assertThat(whole.garbageLines()).isEqualTo(1);
        assertThat(early.offered).hasSizeLessThan(scanning.offered.size()); // most names were not scanned whole
    }

    @Test
    void readsTheSharedVllmFixtureSeriesByName() throws IOException {
        RecordingVisitor visitor = new RecordingVisitor(name -> name.equals("vllm:lora_requests_info"));

        new PrometheusTextParser().parse(fixture("vllm-0.10-metrics.txt"), visitor);

        assertThat(visitor.samples).hasSize(2);
        assertThat(visitor.samples.get(0).labels()).containsEntry("running_lora_adapters", "adapter_ko")
                .containsEntry("waiting_lora_adapters", "adapter_json").containsEntry("max_lora", "2");
        assertThat(visitor.samples.get(0).value()).isEqualTo(1.7886264546318772e+09);
        assertThat(visitor.samples.get(1).labels()).containsEntry("running_lora_adapters", "");
    }

    @Test
    void numbersMatchDoubleParseDouble() {
        Random random = new Random(42);
        List<String> fixed = List.of("0", "0.0", "-0.0", "1", "12.0", "0.42", "123456.0", "29205", "9007199254740993",
                "1e22", "1e23", "1.5e-22", "4.9e-324", "1.7976931348623157e308", "1e400", "0.1", "0.30000000000000004",
                "123456789012345678901234567890", "0.000000000000000000000000000001", "3.14159265358979323846",
                "1.7886264401000000e+09");
        for (String s : fixed) {
            assertNumber(s);
        }
        for (int i = 0; i < 20_000; i++) {
            double d = switch (i % 4) {
                case 0 -> random.nextDouble();
                case 1 -> random.nextDouble() * Math.pow(10, random.nextInt(40) - 20);
                case 2 -> Double.longBitsToDouble(random.nextLong() & 0x7FEFFFFFFFFFFFFFL);
                default -> random.nextInt(1_000_000) / 100.0;
            };
            assertNumber(Double.toString(d));
            assertNumber(String.format(java.util.Locale.ROOT, "%.6f", d));
        }
    }

    private static void assertNumber(String s) {
        byte[] b = bytes(s);
        assertThat(PrometheusNumbers.parse(b, 0, b.length)).as(s).isEqualTo(Double.parseDouble(s));
    }

    static PrometheusTextParser.ParseStats parse(String text, SampleVisitor visitor) {
        return new PrometheusTextParser().parse(bytes(text), visitor);
    }

    static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    static byte[] fixture(String name) throws IOException {
        try (InputStream in = PrometheusTextParserTest.class.getResourceAsStream("/fixtures/" + name)) {
            if (in == null) {
                throw new IOException("no fixture " + name);
            }
            return in.readAllBytes();
        }
    }
}
