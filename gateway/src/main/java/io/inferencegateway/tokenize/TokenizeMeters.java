package io.inferencegateway.tokenize;

import static io.inferencegateway.config.Durations.seconds;

import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * The prompt tokenizers' meters, per pool (from the config, so their series are few): how long a request's prompt
 * took to tokenize, its tokens, the requests whose body has no exact count (they keep the estimate), and the tokens the
 * cache of prompt pieces holds.
 */
public final class TokenizeMeters implements MeterBinder {

    private volatile MeterRegistry registry;

    @Override
    public void bindTo(MeterRegistry registry) {
        this.registry = registry;
    }

    /** The meters of {@code pool}, whose cache holds {@code cachedTokens} tokens. */
    Pool pool(String pool, LongSupplier cachedTokens) {
        MeterRegistry r = registry;
        Gauge.builder("inference_gateway_tokenizer_cached_tokens", cachedTokens, s -> s.getAsLong())
                .description("Tokens of prompt pieces the pool's tokenizer keeps, so that a conversation's history "
                        + "is tokenized once")
                .tags("pool", pool).register(r);
        return new Pool(
                Timer.builder("inference_gateway_prompt_tokenize_seconds")
                        .description("Time to render and tokenize a request's prompt with the pool's tokenizer")
                        .tags("pool", pool)
                        .serviceLevelObjectives(seconds(0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025,
                                0.05, 0.1))
                        .register(r),
                DistributionSummary.builder("inference_gateway_prompt_tokens")
                        .description("Exact prompt tokens of the requests the pool's tokenizer counted")
                        .tags("pool", pool)
                        .serviceLevelObjectives(128, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072)
                        .register(r),
                Counter.builder("inference_gateway_prompt_tokenize_skipped_total")
                        .description("Requests to a pool with a tokenizer whose body has no exact count here (images, "
                                + "token arrays, batches): they keep the estimate")
                        .tags("pool", pool).register(r));
    }

    /** One pool's meters. */
    static final class Pool {
        private final Timer time;
        private final DistributionSummary tokens;
        private final Counter skipped;

        Pool(Timer time, DistributionSummary tokens, Counter skipped) {
            this.time = time;
            this.tokens = tokens;
            this.skipped = skipped;
        }

        /** A request took {@code nanos}: {@code count} tokens, or -1 when its body had no exact count. */
        void tokenized(int count, long nanos) {
            time.record(nanos, TimeUnit.NANOSECONDS);
            if (count < 0) {
                skipped.increment();
            } else {
                tokens.record(count);
            }
        }
    }
}
