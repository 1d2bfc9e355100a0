package io.inferencegateway.simulator;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * llama.cpp's {@code llama-server --metrics} exposition, in the shape of a real capture
 * ({@code gateway/src/test/resources/fixtures/llamacpp-metrics-busy.txt}): unlabelled series under {@code llamacpp:}, every
 * counter first and then every gauge, each with its HELP and TYPE, values printed the way a C++ stream prints a
 * double (six significant digits, so a large counter reads {@code 1.23457e+06}). No KV-usage gauge: the real
 * server has none. The pod's running batch stands for llama.cpp's busy slots ({@code --max-num-seqs} plays
 * {@code --parallel}) and its queue for the deferred requests.
 *
 * <p>Where llama.cpp averages over the time since the previous {@code /metrics} read (the throughput gauges and
 * busy slots per decode), this exposition averages over the pod's life, so that reading it changes nothing.
 * Prompt tokens count when their request is admitted (llama.cpp: once its prompt is processed), predicted tokens
 * when their request finishes (as in llama.cpp).
 */
final class LlamaCppMetricsFormat {

    private static final MathContext SIX_DIGITS = new MathContext(6, RoundingMode.HALF_EVEN);

    private LlamaCppMetricsFormat() {
    }

    /**
     * llama-server's {@code GET /props}, the fields a router reads: {@code total_slots} ({@code --parallel}, played by
     * {@code --max-num-seqs}) and, in {@code default_generation_settings}, a slot's context {@code n_ctx}
     * ({@code --ctx-size} over the slots, played by the KV cache over {@code --max-num-seqs}), so that slots times
     * context is the pod's KV cache in tokens.
     */
    static String props(EngineConfig c) {
        long slotContext = (long) c.numGpuBlocks() * c.blockSize() / c.maxNumSeqs();
        return "{\"default_generation_settings\":{\"id\":0,\"n_ctx\":" + slotContext + ",\"speculative\":false,"
                + "\"is_processing\":false},\"total_slots\":" + c.maxNumSeqs() + ",\"model_path\":"
                + Json.quote("models/" + c.modelName() + ".gguf") + ",\"modalities\":{\"vision\":false},"
                + "\"is_sleeping\":false}";
    }

    static String render(EngineCore e, long nowNanos) {
        EngineMetrics m = e.metrics();
        long cached = m.prefixHits;
        long computed = m.prefixQueries - m.prefixHits;
        double promptSeconds = m.prefillTime.sum();
        double predicted = m.generationTokensPerRequest.sum();
        double predictedSeconds = m.decodeTime.sum();
        StringBuilder sb = new StringBuilder(3072);
        series(sb, "prompt_tokens_total", "Number of prompt tokens processed, excluding cached tokens", "counter",
                computed);
        series(sb, "prompt_tokens_cached_total", "Number of prompt tokens reused from the cache", "counter", cached);
        series(sb, "prompt_seconds_total", "Total time spent processing prompts", "counter", promptSeconds);
        series(sb, "tokens_predicted_total", "Number of generation tokens processed", "counter", predicted);
        series(sb, "tokens_predicted_seconds_total", "Total time spent generating tokens", "counter",
                predictedSeconds);
        series(sb, "n_decode_total",
                "Total number of llama_decode() calls, excluding speculative decoding and multimodal decoding",
                "counter", m.steps);
        series(sb, "n_tokens_max", "Largest observed sequence length (prompt + generation)", "counter",
                m.maxSequenceTokens);
        series(sb, "spec_decode_num_draft_tokens_total", "Speculative: Total draft tokens generated", "counter", 0);
        series(sb, "spec_decode_num_accepted_tokens_total",
                "Speculative: Total draft tokens accepted by the target model", "counter", 0);
        series(sb, "spec_decode_num_drafts_total", "Speculative: Total speculative decoding verification steps",
                "counter", 0);
        series(sb, "prompt_tokens_seconds", "Average prompt throughput in tokens/s", "gauge",
                promptSeconds > 0 ? computed / promptSeconds : 0);
        series(sb, "predicted_tokens_seconds", "Average generation throughput in tokens/s", "gauge",
                predictedSeconds > 0 ? predicted / predictedSeconds : 0);
        series(sb, "requests_processing", "Number of requests processing", "gauge", e.numRunning());
        series(sb, "requests_deferred", "Number of requests deferred", "gauge", e.numWaiting());
        series(sb, "n_busy_slots_per_decode", "Average number of busy slots per llama_decode() call", "gauge",
                m.steps > 0 ? (double) m.scheduledSequences / m.steps : 0);
        return sb.toString();
    }

    private static void series(StringBuilder sb, String name, String help, String type, double value) {
        sb.append("# HELP llamacpp:").append(name).append(' ').append(help).append('\n');
        sb.append("# TYPE llamacpp:").append(name).append(' ').append(type).append('\n');
        sb.append("llamacpp:").append(name).append(' ').append(number(value)).append('\n');
    }

    /**
     * A finite double as {@code std::ostream << double} writes it by default ({@code %g} with precision 6): fixed
     * notation for exponents -4 to 5, scientific otherwise, trailing zeros dropped.
     */
    static String number(double d) {
        if (!Double.isFinite(d)) {
            throw new IllegalArgumentException("llama.cpp prints only finite values here, got " + d);
        }
        if (d == 0) {
            return "0";
        }
        BigDecimal rounded = new BigDecimal(d).round(SIX_DIGITS);
        int exponent = rounded.precision() - rounded.scale() - 1;
        if (exponent >= -4 && exponent < 6) {
            return rounded.stripTrailingZeros().toPlainString();
        }
        String digits = rounded.unscaledValue().abs().toString().replaceAll("0+$", "");
        StringBuilder s = new StringBuilder(16);
        if (d < 0) {
            s.append('-');
        }
        s.append(digits.charAt(0));
        if (digits.length() > 1) {
            s.append('.').append(digits, 1, digits.length());
        }
        s.append('e').append(exponent < 0 ? '-' : '+');
        int magnitude = Math.abs(exponent);
        if (magnitude < 10) {
            s.append('0');
        }
        return s.append(magnitude).toString();
    }
}
