package io.inferencegateway.ratelimit;

import java.net.http.HttpResponse;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which rate-limit window a response was counted in, read from its {@code x-ratelimit-reset-*} header, so that a test
 * can hold whichever window its requests land in instead of waiting for one to start. Both stores align windows to
 * the epoch (the clock divided by the window's length; Redis's clock is this machine's), so the time a response
 * arrives plus the time left in its window lands on the window's end, a multiple of its length, give or take the
 * response's latency and the header's tenth of a second.
 */
final class RateLimitWindows {

    private static final Pattern RESET = Pattern.compile("(?:(\\d+)m)?(?:(\\d+)(?:\\.(\\d))?s)?|(\\d+)ms");

    private RateLimitWindows() {
    }

    /**
     * The number of the window {@code response} was counted in: its end divided by {@code windowMillis}; empty when
     * it carries no reset header (no limit applies to it).
     *
     * @param receivedAtMillis this machine's clock when the response arrived
     */
    static OptionalLong window(HttpResponse<?> response, long receivedAtMillis, long windowMillis) {
        String reset = response.headers().firstValue("x-ratelimit-reset-requests")
                .or(() -> response.headers().firstValue("x-ratelimit-reset-tokens")).orElse(null);
        return reset == null ? OptionalLong.empty() : OptionalLong.of(window(receivedAtMillis, reset, windowMillis));
    }

    /** The number of the window that had {@code reset} left when a response arrived at {@code receivedAtMillis}. */
    static long window(long receivedAtMillis, String reset, long windowMillis) {
        return Math.round((double) (receivedAtMillis + millis(reset)) / windowMillis);
    }

    /** A reset time as {@link Admission#duration} writes it ({@code 250ms}, {@code 12.5s}, {@code 1m30s}), in ms. */
    static long millis(String reset) {
        Matcher m = RESET.matcher(reset);
        if (reset.isEmpty() || !m.matches()) {
            throw new IllegalArgumentException("not a reset time: '" + reset + "'");
        }
        if (m.group(4) != null) {
            return Long.parseLong(m.group(4));
        }
        return 60_000 * parse(m.group(1)) + 1_000 * parse(m.group(2)) + 100 * parse(m.group(3));
    }

    private static long parse(String digits) {
        return digits == null ? 0 : Long.parseLong(digits);
    }
}
