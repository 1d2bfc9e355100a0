package io.inferencegateway.lab.bench.fleet;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The model-server engines the bench can run against when the servers are a user's own ({@code bench --endpoints}):
 * the {@code engineType} the gateway's config names, where the engine publishes Prometheus text, and the series of
 * it the bench reads for its per-pod columns. The gateway reads the same engines through its own dialects; this is
 * the bench's smaller copy of the few names it needs, so that it keeps seeing the gateway from outside only.
 *
 * <p>Series an engine does not publish are null here and their columns stay empty in the report: llama.cpp counts
 * no requests and no preemptions, SGLang and TensorRT-LLM no preemptions, TGI no prefix cache.
 */
public enum ServerEngine {

    LLAMACPP("llamacpp", "llama.cpp", "/metrics",
            new Series("llamacpp:requests_deferred"), new Series("llamacpp:requests_processing"),
            null, new Series("llamacpp:prompt_tokens_cached_total"), new Series("llamacpp:prompt_tokens_total"),
            null, null),
    VLLM("vllm", "vLLM", "/metrics",
            new Series("vllm:num_requests_waiting"), new Series("vllm:num_requests_running"),
            new Series("vllm:prefix_cache_queries_total"), new Series("vllm:prefix_cache_hits_total"), null,
            new Series("vllm:request_success_total"), new Series("vllm:num_preemptions_total")),
    SGLANG("sglang", "SGLang", "/metrics",
            new Series("sglang:num_queue_reqs", "priority", ""), new Series("sglang:num_running_reqs", "priority", ""),
            new Series("sglang:prompt_tokens_total"),
            new Series("sglang:cached_tokens_total", "cache_source", "device"), null, null, null),
    TGI("tgi", "TGI", "/metrics",
            new Series("tgi_queue_size"), new Series("tgi_batch_current_size"),
            null, null, null, new Series("tgi_request_success"), null),
    TRTLLM("trtllm", "TensorRT-LLM", "/prometheus/metrics",
            new Series("trtllm_num_requests_waiting"), new Series("trtllm_num_requests_running"),
            new Series("trtllm_prompt_tokens_total"), new Series("trtllm_prompt_cached_tokens_total"), null,
            null, null);

    private final String label;
    private final String displayName;
    private final String metricsPath;
    private final Series waiting;
    private final Series running;
    private final Series prefixQueries;
    private final Series prefixHits;
    private final Series prefixMisses;
    private final Series served;
    private final Series preemptions;

    /**
     * @param prefixQueries prompt tokens looked up in the prefix cache; null when the engine counts only hits and
     *                      misses ({@code prefixMisses}), whose sum it then is
     */
    ServerEngine(String label, String displayName, String metricsPath, Series waiting, Series running,
                 Series prefixQueries, Series prefixHits, Series prefixMisses, Series served, Series preemptions) {
        this.label = label;
        this.displayName = displayName;
        this.metricsPath = metricsPath;
        this.waiting = waiting;
        this.running = running;
        this.prefixQueries = prefixQueries;
        this.prefixHits = prefixHits;
        this.prefixMisses = prefixMisses;
        this.served = served;
        this.preemptions = preemptions;
    }

    /** The {@code engineType} of the gateway's config, which is also the value of {@code bench --engine}. */
    public String label() {
        return label;
    }

    /** The engine as people name it, for reports: llama.cpp, vLLM. */
    public String displayName() {
        return displayName;
    }

    /** Where the engine's Prometheus text lives. */
    public String metricsPath() {
        return metricsPath;
    }

    /** The engine of a config name; the message lists the known ones. */
    public static ServerEngine fromLabel(String label) {
        for (ServerEngine engine : values()) {
            if (engine.label.equals(label.toLowerCase(Locale.ROOT))) {
                return engine;
            }
        }
        throw new IllegalArgumentException("unknown engine '" + label + "'; known: " + labels());
    }

    /** The known labels, comma-separated. */
    public static String labels() {
        return Arrays.stream(values()).map(ServerEngine::label).collect(Collectors.joining(", "));
    }

    /** Whether the text has the engine's queue series, which a wrong {@code --engine} or no metrics lack. */
    public boolean recognises(String metricsText) {
        return !Double.isNaN(waiting.sum(metricsText)) || !Double.isNaN(running.sum(metricsText));
    }

    /** What one exposition says; NaN for each series the engine does not publish or the text lacks. */
    public ServerReading read(String metricsText) {
        double hits = sum(prefixHits, metricsText);
        double queries = prefixQueries != null ? sum(prefixQueries, metricsText)
                : hits + sum(prefixMisses, metricsText);
        return new ServerReading(sum(waiting, metricsText), sum(running, metricsText), queries, hits,
                sum(served, metricsText), sum(preemptions, metricsText));
    }

    private static double sum(Series series, String text) {
        return series == null ? Double.NaN : series.sum(text);
    }

    /**
     * One metric of an engine: its name and, optionally, the one label value its series must have (a label the
     * series lacks counts as empty). Its value is the sum over every matching series, so over the data-parallel
     * ranks of one server.
     */
    record Series(String name, String label, String value) {

        Series(String name) {
            this(name, null, null);
        }

        /** The sum of every sample of this series in Prometheus text; NaN when there is none. */
        double sum(String text) {
            double total = Double.NaN;
            for (String line : text.split("\n")) {
                if (!line.startsWith(name)) {
                    continue;
                }
                String rest = line.substring(name.length());
                if (rest.isEmpty() || (rest.charAt(0) != ' ' && rest.charAt(0) != '{')) {
                    continue; // a longer name with this one as prefix
                }
                String labels = "";
                if (rest.charAt(0) == '{') {
                    int close = rest.lastIndexOf('}');
                    if (close < 0) {
                        continue;
                    }
                    labels = rest.substring(1, close);
                    rest = rest.substring(close + 1);
                }
                if (label != null && !labelValue(labels, label).equals(value)) {
                    continue;
                }
                String[] fields = rest.trim().split("\\s+");
                try {
                    double v = Double.parseDouble(fields[0]);
                    total = Double.isNaN(total) ? v : total + v;
                } catch (NumberFormatException notANumber) {
                    // a sample the bench cannot read counts as absent
                }
            }
            return total;
        }

        /** The value of one label in a series' label set, empty when it is not there. */
        static String labelValue(String labels, String name) {
            for (String pair : List.of(labels.split(","))) {
                int eq = pair.indexOf('=');
                if (eq > 0 && pair.substring(0, eq).trim().equals(name)) {
                    String v = pair.substring(eq + 1).trim();
                    boolean quoted = v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"");
                    return quoted ? v.substring(1, v.length() - 1) : v;
                }
            }
            return "";
        }
    }
}
