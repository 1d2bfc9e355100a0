package io.inferencegateway.lab.bench.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class WorkloadTest {

    @Test
    void tokenContractSerializesMessagesAndCountsFourCharactersPerToken() {
        List<ChatMessage> messages = List.of(ChatMessage.system("abcd"), ChatMessage.user("efgh"));
        assertThat(TokenContract.serialize(messages)).isEqualTo("<|system|>\nabcd\n<|user|>\nefgh\n");
        assertThat(TokenContract.serializedLength(messages)).isEqualTo(TokenContract.serialize(messages).length());
        assertThat(TokenContract.promptTokens(messages)).isEqualTo(30 / 4);
        assertThat(TokenContract.chars(2048)).isEqualTo(8192);
    }

    @ParameterizedTest(name = "{0} characters")
    @CsvSource({"0", "1", "63", "64", "8192"})
    void syntheticTextHasTheExactLengthAndIsAscii(int length) {
        String text = SyntheticText.of("Head:", length, new SplittableRandom(length));
        assertThat(text).hasSize(length);
        assertThat(text.chars().allMatch(c -> c >= 32 && c < 127)).isTrue();
        assertThat(SyntheticText.of("Head:", length, new SplittableRandom(length))).isEqualTo(text);
    }

    @Test
    void zipfPopularityIsSkewedAsConfigured() {
        ZipfSampler zipf = new ZipfSampler(16, 1.0);
        double harmonic = 0;
        for (int i = 1; i <= 16; i++) {
            harmonic += 1.0 / i;
        }
        assertThat(zipf.probability(0)).isCloseTo(1 / harmonic, within(1e-12));
        assertThat(zipf.probability(15)).isCloseTo(1 / (16 * harmonic), within(1e-12));
        int[] counts = new int[16];
        SplittableRandom rng = new SplittableRandom(5);
        for (int i = 0; i < 100_000; i++) {
            counts[zipf.sample(rng)]++;
        }
        assertThat(counts[0] / 100_000.0).isCloseTo(zipf.probability(0), within(0.01));
        assertThat(counts[15] / 100_000.0).isCloseTo(zipf.probability(15), within(0.005));
        assertThat(new ZipfSampler(4, 0).probability(3)).isCloseTo(0.25, within(1e-12));
    }

    @Test
    void loraRequestsNameTheAdapterAsTheModel() {
        LoraWorkload lora = new LoraWorkload(List.of("x-lora-0", "x-lora-1"), 1, IntRange.of(100), IntRange.of(7), 4);
        RequestSpec spec = lora.next(3, new SplittableRandom(1));
        assertThat(spec.model()).isIn("x-lora-0", "x-lora-1");
        assertThat(spec.key()).isEqualTo(spec.model());
        assertThat(spec.kind()).isEqualTo("lora");
        assertThat(spec.maxTokens()).isEqualTo(7);
        assertThat(spec.messages().get(0).content()).hasSize(400);
        assertThat(lora.shape().adaptersPerBatch()).isEqualTo(2);
    }

    @Test
    void mixedDrawsEachPartByWeight() {
        MixedWorkload mixed = new MixedWorkload(List.of(
                new MixedWorkload.Part(3, new UniquePromptWorkload("a", IntRange.of(10), IntRange.of(1))),
                new MixedWorkload.Part(1, new UniquePromptWorkload("b", IntRange.of(30), IntRange.of(5)))));
        Map<String, Integer> byModel = new HashMap<>();
        SplittableRandom rng = new SplittableRandom(8);
        for (int i = 0; i < 20_000; i++) {
            byModel.merge(mixed.next(i, rng).model(), 1, Integer::sum);
        }
        assertThat(byModel.get("a") / 20_000.0).isCloseTo(0.75, within(0.02));
        WorkloadShape shape = mixed.shape();
        assertThat(shape.promptTokens()).isCloseTo(15, within(1e-9));
        assertThat(shape.outputTokens()).isCloseTo(2, within(1e-9));
    }
}
