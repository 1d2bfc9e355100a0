package io.inferencegateway.simulator;

import java.math.BigDecimal;
import java.util.Arrays;

/** Writes the Prometheus text exposition format (0.0.4), labels sorted by name as in the fixture. */
final class PromText {

    private final StringBuilder sb = new StringBuilder(8192);

    void header(String name, String help, String type) {
        sb.append("# HELP ").append(name).append(' ').append(help).append('\n');
        sb.append("# TYPE ").append(name).append(' ').append(type).append('\n');
    }

    /** One sample; {@code labels} alternates name, value. */
    void sample(String name, double value, String... labels) {
        sb.append(name);
        appendLabels(labels);
        sb.append(' ').append(number(value)).append('\n');
    }

    void gauge(String name, String help, double value, String... labels) {
        header(name, help, "gauge");
        sample(name, value, labels);
    }

    void counter(String name, String help, double value, String... labels) {
        header(name, help, "counter");
        sample(name, value, labels);
    }

    void histogram(String name, String help, Histogram h, String... labels) {
        header(name, help, "histogram");
        double[] bounds = h.bounds();
        String[] withLe = Arrays.copyOf(labels, labels.length + 2);
        withLe[labels.length] = "le";
        for (int i = 0; i < bounds.length; i++) {
            withLe[labels.length + 1] = number(bounds[i]);
            sample(name + "_bucket", h.cumulative(i), withLe);
        }
        withLe[labels.length + 1] = "+Inf";
        sample(name + "_bucket", h.count(), withLe);
        sample(name + "_count", h.count(), labels);
        sample(name + "_sum", h.sum(), labels);
    }

    @Override
    public String toString() {
        return sb.toString();
    }

    private void appendLabels(String[] labels) {
        if (labels.length == 0) {
            return;
        }
        int n = labels.length / 2;
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> labels[2 * a].compareTo(labels[2 * b]));
        sb.append('{');
        for (int k = 0; k < n; k++) {
            int i = order[k];
            if (k > 0) {
                sb.append(',');
            }
            sb.append(labels[2 * i]).append("=\"");
            escape(labels[2 * i + 1]);
            sb.append('"');
        }
        sb.append('}');
    }

    private void escape(String v) {
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            switch (c) {
                case '\\' -> sb.append("\\\\");
                case '"' -> sb.append("\\\"");
                case '\n' -> sb.append("\\n");
                default -> sb.append(c);
            }
        }
    }

    /** Formats like Python prometheus_client (floatToGoString): 12.0, 0.42, 1.7886264546318772e+09. */
    static String number(double d) {
        if (Double.isNaN(d)) {
            return "NaN";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "+Inf" : "-Inf";
        }
        String s;
        if (d == Math.rint(d) && Math.abs(d) < 1e15) {
            s = (long) d + ".0";
        } else {
            s = new BigDecimal(Double.toString(d)).toPlainString();
        }
        int dot = s.indexOf('.');
        if (d > 0 && dot > 6) {
            String digits = s.charAt(0) + "." + s.substring(1, dot) + s.substring(dot + 1);
            int end = digits.length();
            while (end > 0 && (digits.charAt(end - 1) == '0' || digits.charAt(end - 1) == '.')) {
                end--;
            }
            return digits.substring(0, end) + "e+0" + (dot - 1);
        }
        return s;
    }
}
