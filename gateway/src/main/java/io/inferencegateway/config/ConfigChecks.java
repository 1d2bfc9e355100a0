package io.inferencegateway.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The small checks every section's validator shares, each with the one wording its error always has: a required text,
 * a bounded duration, an integer in a range, a percentage, an http(s) or a Redis URL, and the did-you-mean that follows
 * a name the config does not know. Each takes the path of the value it checks, so every error names where it is.
 */
final class ConfigChecks {

    /**
     * The longest duration any setting takes (timeouts, ejections, windows, TTLs): a day. Beyond it a value is a slip
     * of unit or digits, and a wait that long would hold a connection or a pod out of service for good.
     */
    static final Duration MAX_DURATION = Duration.ofHours(24);

    /**
     * Bounds of a polling interval (metricsInterval, spec.global.summaryInterval): below 10ms the gateway would spend
     * itself scraping (the lab's runs floor it there too), above an hour its picture of the pods means nothing.
     */
    static final Duration MIN_POLL_INTERVAL = Duration.ofMillis(10);
    static final Duration MAX_POLL_INTERVAL = Duration.ofHours(1);

    /** An unknown name gets a did-you-mean when a known one is at most this many single-letter edits away. */
    private static final int MAX_SUGGESTION_DISTANCE = 2;

    private ConfigChecks() {
    }

    /** The text, trimmed; an error when it is missing or blank. */
    static String required(String value, String path) throws InvalidConfigException {
        if (value == null || value.isBlank()) {
            throw new InvalidConfigException(path + " is required");
        }
        return value.trim();
    }

    /** An HTTP header's name: an RFC 9110 token. */
    private static final Pattern HEADER_NAME = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");

    /** Whether {@code name} is an HTTP header's name (an RFC 9110 token). */
    static boolean isHeaderName(String name) {
        return name != null && HEADER_NAME.matcher(name).matches();
    }

    /** A positive duration of at most {@link #MAX_DURATION}; {@code fallback} when unset. */
    static Duration duration(String text, String path, Duration fallback) throws InvalidConfigException {
        return duration(text, path, fallback, null, MAX_DURATION);
    }

    /** A positive duration within {@code min} (null: any positive) and {@code max}; {@code fallback} when unset. */
    static Duration duration(String text, String path, Duration fallback, Duration min, Duration max)
            throws InvalidConfigException {
        if (text == null) {
            return fallback;
        }
        Duration d;
        try {
            d = Durations.parse(text);
        } catch (IllegalArgumentException e) {
            throw new InvalidConfigException(path + " " + e.getMessage());
        } catch (ArithmeticException e) { // more nanoseconds than a long holds
            d = null;
        }
        if (d != null && (d.isZero() || d.isNegative())) {
            throw new InvalidConfigException(path + " must be positive, got '" + text + "'");
        }
        if (d == null || d.compareTo(max) > 0 || (min != null && d.compareTo(min) < 0)) {
            throw new InvalidConfigException(path + " must be " + (min == null ? "at most " + bound(max)
                    : bound(min) + ".." + bound(max)) + ", got '" + text + "'");
        }
        return d;
    }

    private static String bound(Duration d) {
        return d.toMillis() % 3_600_000 == 0 ? d.toHours() + "h" : Durations.format(d);
    }

    /** An integer within {@code min..max}; {@code fallback} when unset. */
    static int intIn(Integer value, int fallback, int min, int max, String path) throws InvalidConfigException {
        if (value == null) {
            return fallback;
        }
        if (value < min || value > max) {
            throw new InvalidConfigException(path + " must be " + min + ".." + max + ", got " + value);
        }
        return value;
    }

    /** A percentage, 0..100; {@code fallback} when unset. */
    static double percent(Double value, double fallback, String path) throws InvalidConfigException {
        if (value == null) {
            return fallback;
        }
        if (!(value >= 0 && value <= 100)) {
            throw new InvalidConfigException(path + " must be a percentage 0..100, got " + value);
        }
        return value;
    }

    /** An {@code http://} or {@code https://} URL with a host. */
    static URI httpUrl(String text, String path) throws InvalidConfigException {
        URI url = uri(text);
        if (url == null || url.getHost() == null
                || !("http".equals(url.getScheme()) || "https".equals(url.getScheme()))) {
            throw new InvalidConfigException(path + " must be an http(s) URL, got '" + text + "'");
        }
        return url;
    }

    /** A {@code redis://} or {@code rediss://} URL with a host. */
    static URI redisUri(String text, String path) throws InvalidConfigException {
        URI url = uri(text);
        if (url == null || url.getHost() == null
                || !("redis".equals(url.getScheme()) || "rediss".equals(url.getScheme()))) {
            throw new InvalidConfigException(path + " must be a redis:// or rediss:// URL, got '" + text + "'");
        }
        return url;
    }

    private static URI uri(String text) {
        try {
            return new URI(text.strip());
        } catch (URISyntaxException e) {
            return null;
        }
    }

    /**
     * Checks that {@code name}, a key of the section at {@code path}, is the pool's {@code modelName} or one of its
     * {@code adapters}: what a per-model setting of a pool may name.
     */
    static void servedByPool(String path, String name, String modelName, List<String> adapters)
            throws InvalidConfigException {
        if (!name.equals(modelName) && !adapters.contains(name)) {
            throw new InvalidConfigException(path + " names '" + name + "', which is neither the pool's modelName nor "
                    + "one of its loraAdapters");
        }
    }

    /** {@code "; did you mean x?"} with the {@link #closest} known name, or nothing when none is close. */
    static String didYouMean(String name, Collection<?> known) {
        String suggestion = closest(name, known);
        return suggestion == null ? "" : "; did you mean " + suggestion + "?";
    }

    /**
     * The known name most like {@code name}: one that differs only in case, else the nearest within
     * {@link #MAX_SUGGESTION_DISTANCE} edits (the first listed on a tie); null when none is that close.
     */
    static String closest(String name, Collection<?> known) {
        if (name == null || known == null) {
            return null;
        }
        String best = null;
        int bestDistance = MAX_SUGGESTION_DISTANCE + 1;
        for (Object k : known) {
            String candidate = String.valueOf(k);
            int distance = candidate.equalsIgnoreCase(name) ? 0 : editDistance(name, candidate);
            if (distance < bestDistance) {
                best = candidate;
                bestDistance = distance;
            }
        }
        return best;
    }

    /** Levenshtein distance: insertions, deletions and substitutions of one character each count one. */
    static int editDistance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitute = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitute, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
