package io.inferencegateway.config;

import java.time.Duration;

/** Parses Kubernetes-style durations ({@code 300s}, {@code 250ms}, {@code 5m}, {@code 1h30m}), and makes bucket bounds. */
public final class Durations {

    private Durations() {
    }

    /** {@code values} seconds each as a duration: a meter's bucket bounds written as in Prometheus. */
    public static Duration[] seconds(double... values) {
        Duration[] out = new Duration[values.length];
        for (int i = 0; i < values.length; i++) {
            out[i] = Duration.ofNanos(Math.round(values[i] * 1e9));
        }
        return out;
    }

    public static Duration parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("empty duration");
        }
        String s = text.trim();
        Duration total = Duration.ZERO;
        int i = 0;
        while (i < s.length()) {
            int start = i;
            while (i < s.length() && (Character.isDigit(s.charAt(i)) || s.charAt(i) == '.')) {
                i++;
            }
            if (start == i) {
                throw new IllegalArgumentException("'" + text + "' is not a duration such as 300s, 250ms or 5m");
            }
            double amount = Double.parseDouble(s.substring(start, i));
            int unitStart = i;
            while (i < s.length() && Character.isLetter(s.charAt(i))) {
                i++;
            }
            String unit = s.substring(unitStart, i);
            double nanosPerUnit = switch (unit) {
                case "ms" -> 1e6;
                case "s" -> 1e9;
                case "m" -> 60e9;
                case "h" -> 3600e9;
                default -> throw new IllegalArgumentException(
                        "'" + text + "' has no valid unit (ms, s, m, h)");
            };
            total = total.plusNanos(Math.round(amount * nanosPerUnit));
        }
        return total;
    }

    /** A duration as the config would write it: {@code 250ms}, {@code 4s}. */
    public static String format(Duration d) {
        long millis = d.toMillis();
        return millis % 1000 == 0 ? millis / 1000 + "s" : millis + "ms";
    }
}
