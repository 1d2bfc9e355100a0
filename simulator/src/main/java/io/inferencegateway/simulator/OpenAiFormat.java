package io.inferencegateway.simulator;

import java.util.List;

/**
 * vLLM's OpenAI-compatible response bodies, built by hand on the hot path. Field order and null
 * fields follow vLLM 0.10 (chat chunks serialized without unset fields, completion chunks with all).
 */
final class OpenAiFormat {

    private OpenAiFormat() {
    }

    /** The fixed head of every chunk of one streamed response. */
    static String chunkHead(boolean chat, String id, long created, String model) {
        return "{\"id\":\"" + id + "\",\"object\":\"" + (chat ? "chat.completion.chunk" : "text_completion")
                + "\",\"created\":" + created + ",\"model\":" + Json.quote(model) + ",\"choices\":[";
    }

    static String chatRoleChunk(String head) {
        return head + "{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"logprobs\":null,"
                + "\"finish_reason\":null}]}";
    }

    static String chatTokenChunk(String head, String text, String finishReason) {
        StringBuilder sb = new StringBuilder(head.length() + 96).append(head)
                .append("{\"index\":0,\"delta\":{\"content\":").append(Json.quote(text)).append("},\"logprobs\":null,");
        if (finishReason == null) {
            sb.append("\"finish_reason\":null}]}");
        } else {
            sb.append("\"finish_reason\":\"").append(finishReason).append("\",\"stop_reason\":null}]}");
        }
        return sb.toString();
    }

    static String completionTokenChunk(String head, String text, String finishReason) {
        return head + "{\"index\":0,\"text\":" + Json.quote(text) + ",\"logprobs\":null,\"finish_reason\":"
                + (finishReason == null ? "null" : "\"" + finishReason + "\"") + ",\"stop_reason\":null}],\"usage\":null}";
    }

    static String usageChunk(String head, SimRequest r) {
        String h = head.endsWith("[") ? head + "]" : head;
        return h + ",\"usage\":" + usage(r) + "}";
    }

    static String usage(SimRequest r) {
        int prompt = r.promptLength();
        int completion = r.outputTokens();
        return "{\"prompt_tokens\":" + prompt + ",\"total_tokens\":" + (prompt + completion) + ",\"completion_tokens\":"
                + completion + ",\"prompt_tokens_details\":{\"cached_tokens\":" + r.cachedPromptTokens() + "}}";
    }

    static String chatCompletion(String id, long created, String model, String text, String finishReason,
                                 SimRequest r) {
        return "{\"id\":\"" + id + "\",\"object\":\"chat.completion\",\"created\":" + created + ",\"model\":"
                + Json.quote(model) + ",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\","
                + "\"reasoning_content\":null,\"content\":" + Json.quote(text) + ",\"tool_calls\":[]},"
                + "\"logprobs\":null,\"finish_reason\":\"" + finishReason + "\",\"stop_reason\":null}],"
                + "\"usage\":" + usage(r) + ",\"prompt_logprobs\":null,\"kv_transfer_params\":null}";
    }

    static String completion(String id, long created, String model, String text, String finishReason,
                             SimRequest r) {
        return "{\"id\":\"" + id + "\",\"object\":\"text_completion\",\"created\":" + created + ",\"model\":"
                + Json.quote(model) + ",\"choices\":[{\"index\":0,\"text\":" + Json.quote(text)
                + ",\"logprobs\":null,\"finish_reason\":\"" + finishReason + "\",\"stop_reason\":null,"
                + "\"prompt_logprobs\":null}],\"usage\":" + usage(r) + ",\"kv_transfer_params\":null}";
    }

    static String models(String base, List<String> adapters, long created, int maxModelLen) {
        StringBuilder sb = new StringBuilder("{\"object\":\"list\",\"data\":[");
        sb.append(model(base, base, null, created, maxModelLen));
        for (String a : adapters) {
            sb.append(',').append(model(a, "/adapters/" + a, base, created, maxModelLen));
        }
        return sb.append("]}").toString();
    }

    private static String model(String id, String root, String parent, long created, int maxModelLen) {
        return "{\"id\":" + Json.quote(id) + ",\"object\":\"model\",\"created\":" + created
                + ",\"owned_by\":\"vllm\",\"root\":" + Json.quote(root) + ",\"parent\":"
                + (parent == null ? "null" : Json.quote(parent)) + ",\"max_model_len\":" + maxModelLen
                + ",\"permission\":[{\"id\":\"modelperm-" + Integer.toHexString(id.hashCode())
                + "\",\"object\":\"model_permission\",\"created\":" + created + ",\"allow_create_engine\":false,"
                + "\"allow_sampling\":true,\"allow_logprobs\":true,\"allow_search_indices\":false,\"allow_view\":true,"
                + "\"allow_fine_tuning\":false,\"organization\":\"*\",\"group\":null,\"is_blocking\":false}]}";
    }

    static String embeddings(String id, long created, String model, List<float[]> vectors, int promptTokens) {
        StringBuilder sb = new StringBuilder(vectors.size() * vectors.get(0).length * 12 + 256);
        sb.append("{\"id\":\"").append(id).append("\",\"object\":\"list\",\"created\":").append(created)
                .append(",\"model\":").append(Json.quote(model)).append(",\"data\":[");
        for (int i = 0; i < vectors.size(); i++) {
            if (i > 0) {
                sb.append(',');
            }
            sb.append("{\"index\":").append(i).append(",\"object\":\"embedding\",\"embedding\":[");
            float[] v = vectors.get(i);
            for (int k = 0; k < v.length; k++) {
                if (k > 0) {
                    sb.append(',');
                }
                sb.append(v[k]);
            }
            sb.append("]}");
        }
        return sb.append("],\"usage\":{\"prompt_tokens\":").append(promptTokens).append(",\"total_tokens\":")
                .append(promptTokens).append(",\"completion_tokens\":0,\"prompt_tokens_details\":null}}").toString();
    }

    /** A deterministic unit vector derived from the text's tokens. */
    static float[] embed(String text, int dim) {
        int[] tokens = Tokenizer.encode(text);
        double[] acc = new double[dim];
        long state = 0x51ED2701L;
        for (int t : tokens) {
            state = Tokenizer.mix(state ^ t);
            long s = state;
            for (int k = 0; k < dim; k++) {
                s = Tokenizer.mix(s + k);
                acc[k] += ((s >>> 11) * 0x1.0p-53) * 2 - 1;
            }
        }
        double norm = 0;
        for (double a : acc) {
            norm += a * a;
        }
        norm = Math.sqrt(norm);
        float[] out = new float[dim];
        for (int k = 0; k < dim; k++) {
            out[k] = norm == 0 ? (k == 0 ? 1f : 0f) : (float) (acc[k] / norm);
        }
        return out;
    }
}
