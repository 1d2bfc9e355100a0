package io.inferencegateway.lab.soak;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * One reading of a gateway's {@code GET /metrics}, Prometheus text: the samples, and sums over the series of a name
 * whose labels pass a filter.
 */
final class GatewayMetrics {

    record Sample(String name, Map<String, String> labels, double value) {
    }

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final List<Sample> samples;
    private final String text;

    GatewayMetrics(List<Sample> samples, String text) {
        this.samples = List.copyOf(samples);
        this.text = text;
    }

    /** The text as read, for the run's directory. */
    String text() {
        return text;
    }

    static GatewayMetrics read(String baseUrl) throws IOException, InterruptedException {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(baseUrl + "/metrics"))
                .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IOException("GET /metrics answered " + r.statusCode());
        }
        return parse(r.body());
    }

    static GatewayMetrics parse(String text) {
        List<Sample> out = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int brace = line.indexOf('{');
            int space = line.lastIndexOf(' ');
            String name;
            Map<String, String> labels = new LinkedHashMap<>();
            if (brace >= 0 && brace < space) {
                name = line.substring(0, brace);
                int close = line.lastIndexOf('}');
                for (String pair : splitLabels(line.substring(brace + 1, close))) {
                    int eq = pair.indexOf('=');
                    labels.put(pair.substring(0, eq), pair.substring(eq + 2, pair.length() - 1));
                }
            } else {
                name = line.substring(0, line.indexOf(' '));
            }
            String value = line.substring(space + 1);
            out.add(new Sample(name, labels, value.equals("NaN") ? Double.NaN : Double.parseDouble(value)));
        }
        return new GatewayMetrics(out, text);
    }

    private static List<String> splitLabels(String s) {
        List<String> parts = new ArrayList<>();
        int start = 0;
        boolean quoted = false;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == '"') {
                quoted = !quoted;
            } else if (c == ',' && !quoted) {
                parts.add(s.substring(start, i));
                start = i + 1;
            }
        }
        if (start < s.length()) {
            parts.add(s.substring(start));
        }
        return parts;
    }

    double sum(String name) {
        return sum(name, l -> true);
    }

    double sum(String name, Predicate<Map<String, String>> labels) {
        double total = 0;
        for (Sample s : samples) {
            if (s.name().equals(name) && labels.test(s.labels())) {
                total += s.value();
            }
        }
        return total;
    }

    /** Every value of {@code label} on the series of {@code name}, with its summed value. */
    Map<String, Double> byLabel(String name, String label) {
        Map<String, Double> out = new LinkedHashMap<>();
        for (Sample s : samples) {
            if (s.name().equals(name)) {
                out.merge(s.labels().getOrDefault(label, ""), s.value(), Double::sum);
            }
        }
        return out;
    }

    boolean has(String name) {
        return samples.stream().anyMatch(s -> s.name().equals(name));
    }
}
