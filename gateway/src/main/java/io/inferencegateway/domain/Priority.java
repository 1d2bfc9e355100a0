package io.inferencegateway.domain;

import java.util.Locale;

/**
 * How much a request matters when the pool is full: an integer, higher first, as in GIE's {@code InferenceObjective}.
 * Three names stand for the usual values: {@code critical} (1), {@code standard} (0, the default) and
 * {@code sheddable} (-1). Any negative priority is sheddable: refused at once, rather than queued, while every pod
 * of its pool is saturated.
 */
public final class Priority {

    public static final int CRITICAL = 1;
    public static final int STANDARD = 0;
    public static final int SHEDDABLE = -1;
    /** Integers beyond this magnitude are refused: a header must not make up arbitrarily many queue levels. */
    public static final int LIMIT = 1000;

    private Priority() {
    }

    /** The priority a name or an integer stands for, or null when {@code text} is neither. */
    public static Integer parse(String text) {
        if (text == null) {
            return null;
        }
        String t = text.trim().toLowerCase(Locale.ROOT);
        switch (t) {
            case "critical":
                return CRITICAL;
            case "standard":
                return STANDARD;
            case "sheddable":
                return SHEDDABLE;
            default:
                try {
                    int value = Integer.parseInt(t);
                    return Math.abs(value) <= LIMIT ? value : null;
                } catch (NumberFormatException e) {
                    return null;
                }
        }
    }

    public static boolean sheddable(int priority) {
        return priority < 0;
    }

    /** The band a priority falls in, the bounded label metrics and logs use: critical, standard or sheddable. */
    public static String band(int priority) {
        return priority > 0 ? "critical" : priority == 0 ? "standard" : "sheddable";
    }
}
