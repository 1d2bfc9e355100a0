package io.inferencegateway.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The tests' reading of a response's window: the reset header read back, and the window it points at. */
class RateLimitWindowsTest {

    @ParameterizedTest(name = "{0} -> {1} ms")
    @CsvSource({"0ms, 0", "250ms, 250", "999ms, 999", "1s, 1000", "12.5s, 12500", "59.9s, 59900", "1m0s, 60000",
            "1m30s, 90000"})
    void aResetReadsBackAsTheMillisecondsItWasWrittenFrom(String text, long millis) {
        assertThat(RateLimitWindows.millis(text)).isEqualTo(millis);
        assertThat(Admission.duration(millis)).isEqualTo(text);
    }

    @Test
    void aResetThatIsNotOneIsRefused() {
        assertThatThrownBy(() -> RateLimitWindows.millis("")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RateLimitWindows.millis("soon")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void responsesOfOneWindowPointAtItsEndWhateverTheirLatency() {
        long minute = 60_000;
        long end = 29_000_000 * minute;
        // just after the window opened, in its middle, 40 ms before it closes (answered 300 ms late), just after
        assertThat(RateLimitWindows.window(end - minute + 5, "59.9s", minute)).isEqualTo(29_000_000);
        assertThat(RateLimitWindows.window(end - 30_000, "30s", minute)).isEqualTo(29_000_000);
        assertThat(RateLimitWindows.window(end + 260, "40ms", minute)).isEqualTo(29_000_000);
        assertThat(RateLimitWindows.window(end + 10, "59.9s", minute)).isEqualTo(29_000_001);
    }
}
