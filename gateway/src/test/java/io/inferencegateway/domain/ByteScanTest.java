package io.inferencegateway.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The shared scanning primitives agree with the plain byte-by-byte reading they stand for, at every offset. */
class ByteScanTest {

    /** Random runs over a small alphabet that holds the searched bytes, non-ASCII ones and borrows' neighbours. */
    static byte[] randomBytes(Random r, int length) {
        byte[] alphabet = {'a', ' ', '"', '\\', '\n', '\r', 0x01, 0x1F, 0x21, 0x23, 0x0B, 0x09, (byte) 0x80, (byte) 0xA2,
            (byte) 0xC3, (byte) 0xFF, '!', 'u', '0'};
        byte[] a = new byte[length];
        for (int i = 0; i < length; i++) {
            a[i] = r.nextInt(4) == 0 ? alphabet[r.nextInt(alphabet.length)] : (byte) ('a' + r.nextInt(26));
        }
        return a;
    }

    @Test
    void indexOfFindsTheFirstTargetOrTheEndFromEveryOffset() {
        Random r = new Random(7);
        for (int round = 0; round < 2_000; round++) {
            byte[] a = randomBytes(r, r.nextInt(100));
            byte target = (byte) "\"\n\r\\a\u0001".charAt(r.nextInt(6));
            for (int from = 0; from <= a.length; from++) {
                int end = from + r.nextInt(a.length - from + 1);
                int expected = from;
                while (expected < end && a[expected] != target) {
                    expected++;
                }
                assertThat(ByteScan.indexOf(a, from, end, target)).as("%d in [%d, %d)", (int) target, from, end)
                        .isEqualTo(expected);
            }
        }
    }

    @Test
    void indexOfFindsATargetAfterLongRunsAndNonAsciiBytes() {
        byte[] a = ("x".repeat(100) + "é".repeat(40) + "\"").getBytes(StandardCharsets.UTF_8);
        assertThat(ByteScan.indexOf(a, 0, a.length, (byte) '"')).isEqualTo(a.length - 1);
        assertThat(ByteScan.indexOf(a, 0, a.length - 1, (byte) '"')).isEqualTo(a.length - 1);
    }

    @Test
    void plainJsonWordsStopsNoLaterThanTheWordOfTheFirstByteAStringsReaderMustSee() {
        Random r = new Random(11);
        for (int round = 0; round < 2_000; round++) {
            byte[] a = randomBytes(r, r.nextInt(120));
            for (int from = 0; from <= a.length; from++) {
                int stop = ByteScan.plainJsonWords(a, from, a.length);
                int firstSpecial = from;
                while (firstSpecial < a.length && !mustBeSeen(a[firstSpecial])) {
                    firstSpecial++;
                }
                assertThat(stop).as("from %d", from).isBetween(from, a.length)
                        .isLessThanOrEqualTo(firstSpecial);
                assertThat((stop - from) % 8).isZero();
                assertThat(firstSpecial < stop + 8 || a.length - stop < 8)
                        .as("stopped at %d, first special byte at %d", stop, firstSpecial).isTrue();
            }
        }
    }

    private static boolean mustBeSeen(byte b) {
        return b == '"' || b == '\\' || (b & 0xFF) < 0x20 || (b & 0xFF) > 0x7F;
    }

    static Stream<Arguments> escapes() {
        return Stream.of(
                Arguments.of("\\n", 2, '\n'),
                Arguments.of("\\\"", 2, '"'),
                Arguments.of("\\\\", 2, '\\'),
                Arguments.of("\\/", 2, '/'),
                Arguments.of("\\b", 2, '\b'),
                Arguments.of("\\f", 2, '\f'),
                Arguments.of("\\r", 2, '\r'),
                Arguments.of("\\t", 2, '\t'),
                Arguments.of("\\" + "u00e9", 6, 'é'),
                Arguments.of("\\" + "uD83D", 6, '\uD83D'),
                Arguments.of("\\" + "u00g9", 0, 0),
                Arguments.of("\\" + "u00e", 0, 0),
                Arguments.of("\\x", 0, 0),
                Arguments.of("\\'", 0, 0),
                Arguments.of("\\", 0, 0));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("escapes")
    void aJsonEscapeIsMeasuredAndReadAsJsonAllowsIt(String escape, int length, int character) {
        byte[] a = escape.getBytes(StandardCharsets.US_ASCII);
        assertThat(ByteScan.jsonEscapeLength(a, 0, a.length)).isEqualTo(length);
        if (length == 2) {
            assertThat(ByteScan.jsonEscapedChar(a[1])).isEqualTo(character);
        } else if (length == 6) {
            assertThat(ByteScan.hex4(a, 2)).isEqualTo(character);
        }
    }

    static Stream<Arguments> utf8() {
        return Stream.of(
                Arguments.of("é", new byte[] {(byte) 0xC3, (byte) 0xA9}, 2),
                Arguments.of("€", new byte[] {(byte) 0xE2, (byte) 0x82, (byte) 0xAC}, 3),
                Arguments.of("an emoji", new byte[] {(byte) 0xF0, (byte) 0x9F, (byte) 0x98, (byte) 0x80}, 4),
                Arguments.of("cut short", new byte[] {(byte) 0xE2, (byte) 0x82}, 0),
                Arguments.of("a continuation byte first", new byte[] {(byte) 0x82, 'a'}, 0),
                Arguments.of("no continuation", new byte[] {(byte) 0xC3, 'a'}, 0),
                Arguments.of("no lead byte of five", new byte[] {(byte) 0xF8, (byte) 0x80, (byte) 0x80, (byte) 0x80,
                    (byte) 0x80}, 0));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("utf8")
    void aUtf8SequenceIsWholeAndWellFormedOrNone(String name, byte[] bytes, int length) {
        assertThat(ByteScan.utf8SequenceLength(bytes, 0, bytes.length)).isEqualTo(length);
    }

    @Test
    void jsonSpaceIsTheFourBytesJsonAllowsBetweenTokens() {
        for (int b = -128; b < 128; b++) {
            assertThat(ByteScan.isJsonSpace((byte) b)).as("byte %d", b)
                    .isEqualTo(b == ' ' || b == '\t' || b == '\r' || b == '\n');
        }
    }
}
