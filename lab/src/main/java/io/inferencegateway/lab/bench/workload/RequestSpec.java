package io.inferencegateway.lab.bench.workload;

import java.util.List;

/**
 * The body of one chat completion request, plus two labels for analysis.
 *
 * @param model     the base model or a LoRA adapter name (the gateway routes by this field)
 * @param maxTokens output length asked for; the simulator generates exactly this many tokens
 * @param kind      which part of the workload made it: {@code prefix}, {@code lora} or {@code unique}
 * @param key       the shared-prefix group or the adapter; empty for unique prompts
 * @param priority  the priority class sent as {@code x-gateway-priority} (critical, standard, sheddable); empty
 *                  sends no header
 * @param slo       the latency class and its targets, sent as {@code x-slo-ttft-ms} / {@code x-slo-tpot-ms};
 *                  {@link SloClass#NONE} sends neither
 * @param sessionKey the body's {@code prompt_cache_key}, the name a client gives its conversation; empty sends none
 * @param user       the body's {@code user}, OpenAI's name for the end user, which a client may set per conversation;
 *                   empty sends none
 */
public record RequestSpec(String model, List<ChatMessage> messages, int maxTokens, String kind, String key,
                          String priority, SloClass slo, String sessionKey, String user) {

    public RequestSpec(String model, List<ChatMessage> messages, int maxTokens, String kind, String key,
                       String priority, SloClass slo) {
        this(model, messages, maxTokens, kind, key, priority, slo, "", "");
    }

    public RequestSpec(String model, List<ChatMessage> messages, int maxTokens, String kind, String key) {
        this(model, messages, maxTokens, kind, key, "");
    }

    public RequestSpec(String model, List<ChatMessage> messages, int maxTokens, String kind, String key,
                       String priority) {
        this(model, messages, maxTokens, kind, key, priority, SloClass.NONE);
    }

    public RequestSpec {
        messages = List.copyOf(messages);
        priority = priority == null ? "" : priority;
        slo = slo == null ? SloClass.NONE : slo;
        sessionKey = sessionKey == null ? "" : sessionKey;
        user = user == null ? "" : user;
        if (maxTokens < 1) {
            throw new IllegalArgumentException("maxTokens must be positive, got " + maxTokens);
        }
    }

    public RequestSpec withPriority(String newPriority) {
        return new RequestSpec(model, messages, maxTokens, kind, key, newPriority, slo, sessionKey, user);
    }

    public RequestSpec withSlo(SloClass newSlo) {
        return new RequestSpec(model, messages, maxTokens, kind, key, priority, newSlo, sessionKey, user);
    }

    public int promptTokens() {
        return TokenContract.promptTokens(messages);
    }
}
