package io.inferencegateway.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The x-ratelimit headers of an admission: the tightest budget of each kind, resets as OpenAI writes them. */
class AdmissionTest {

    @ParameterizedTest(name = "{0} ms -> {1}")
    @CsvSource({"0, 0ms", "250, 250ms", "1000, 1s", "12500, 12.5s", "59999, 59.9s", "60000, 1m0s", "90000, 1m30s"})
    void resetsReadLikeOpenAis(long millis, String text) {
        assertThat(Admission.duration(millis)).isEqualTo(text);
    }

    @Test
    void theTightestBudgetOfEachKindIsReported() {
        List<Scope> scopes = List.of(new Scope("tenant", 100, 10_000), new Scope("model", 5, 0));
        // tenant: 10 requests and 9,000 tokens counted; model: 4 requests
        Admission a = new Admission(scopes, new Verdict(true, 7, 1500, null, new long[] {10, 9000, 4, 0}), 300);
        assertThat(a.headers()).containsEntry("x-ratelimit-limit-requests", "5")
                .containsEntry("x-ratelimit-remaining-requests", "1")
                .containsEntry("x-ratelimit-limit-tokens", "10000")
                .containsEntry("x-ratelimit-remaining-tokens", "1000")
                .containsEntry("x-ratelimit-reset-requests", "1.5s")
                .containsEntry("x-ratelimit-reset-tokens", "1.5s");
        assertThat(a.retryAfterSeconds()).isEqualTo(2);
    }

    @Test
    void aRequestThatWasNotCountedCarriesNoHeaders() {
        assertThat(new Admission(List.of(new Scope("t", 1, 1)), null, 0).headers()).isEmpty();
    }
}
