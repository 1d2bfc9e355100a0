package io.inferencegateway.metrics;

import java.nio.charset.StandardCharsets;

/**
 * Reads Prometheus sample values straight from bytes. Plain decimals (the usual {@code 12.0}, {@code 0.42}) take an
 * exact fast path: an integer mantissa below 2^53 scaled by a power of ten up to 10^22 is correctly rounded by one
 * multiplication or division. Anything longer goes to {@link Double#parseDouble}, so every result is correctly
 * rounded.
 */
final class PrometheusNumbers {

    private static final double[] POWERS_OF_TEN = {
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    };
    private static final long MAX_EXACT_MANTISSA = 1L << 53;
    /** Past this many digits the mantissa no longer fits a long; the slow path takes over. */
    private static final long MANTISSA_LIMIT = Long.MAX_VALUE / 10 - 9;

    private PrometheusNumbers() {
    }

    /**
     * The value of {@code text[from, to)}: a decimal with optional sign, fraction and exponent, or {@code NaN},
     * {@code Inf}, {@code +Inf}, {@code -Inf}, {@code Infinity} in any case. Returns NaN both for a NaN literal and for
     * text that is no number; callers that must tell them apart check {@link #isNaNLiteral} on a NaN result.
     */
    static double parse(byte[] text, int from, int to) {
        if (from >= to) {
            return Double.NaN;
        }
        int i = from;
        boolean negative = false;
        if (text[i] == '+' || text[i] == '-') {
            negative = text[i] == '-';
            i++;
        }
        if (i < to && (text[i] | 0x20) == 'i') {
            return isWord(text, i, to, "inf") || isWord(text, i, to, "infinity")
                    ? (negative ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY)
                    : Double.NaN;
        }
        long mantissa = 0;
        int exponent = 0;
        int digits = 0;
        boolean exact = true;
        for (; i < to && isDigit(text[i]); i++, digits++) {
            if (mantissa < MANTISSA_LIMIT) {
                mantissa = mantissa * 10 + (text[i] - '0');
            } else {
                exponent++;
                exact = false;
            }
        }
        if (i < to && text[i] == '.') {
            for (i++; i < to && isDigit(text[i]); i++, digits++) {
                if (mantissa < MANTISSA_LIMIT) {
                    mantissa = mantissa * 10 + (text[i] - '0');
                    exponent--;
                } else {
                    exact = false;
                }
            }
        }
        if (digits == 0) {
            return Double.NaN;
        }
        if (i < to && (text[i] | 0x20) == 'e') {
            i++;
            boolean negativeExponent = false;
            if (i < to && (text[i] == '+' || text[i] == '-')) {
                negativeExponent = text[i] == '-';
                i++;
            }
            int start = i;
            int e = 0;
            for (; i < to && isDigit(text[i]); i++) {
                if (e < 100_000) {
                    e = e * 10 + (text[i] - '0');
                }
            }
            if (i == start) {
                return Double.NaN;
            }
            exponent += negativeExponent ? -e : e;
        }
        if (i != to) {
            return Double.NaN;
        }
        if (mantissa == 0) {
            return negative ? -0.0 : 0.0;
        }
        if (exact && mantissa <= MAX_EXACT_MANTISSA && exponent >= -22 && exponent <= 22) {
            double value = exponent >= 0 ? mantissa * POWERS_OF_TEN[exponent] : mantissa / POWERS_OF_TEN[-exponent];
            return negative ? -value : value;
        }
        // the syntax was checked above, so parseDouble sees only a plain decimal
        return Double.parseDouble(new String(text, from, to - from, StandardCharsets.ISO_8859_1));
    }

    /** Whether {@code text[from, to)} is a NaN literal, in any case. */
    static boolean isNaNLiteral(byte[] text, int from, int to) {
        return isWord(text, from, to, "nan");
    }

    private static boolean isWord(byte[] text, int from, int to, String lowerCaseWord) {
        if (to - from != lowerCaseWord.length()) {
            return false;
        }
        for (int k = 0; k < lowerCaseWord.length(); k++) {
            if ((text[from + k] | 0x20) != lowerCaseWord.charAt(k)) {
                return false;
            }
        }
        return true;
    }

    private static boolean isDigit(byte b) {
        return b >= '0' && b <= '9';
    }
}
