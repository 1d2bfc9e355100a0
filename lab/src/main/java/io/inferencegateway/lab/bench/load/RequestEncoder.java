package io.inferencegateway.lab.bench.load;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.inferencegateway.lab.bench.workload.ChatMessage;
import io.inferencegateway.lab.bench.workload.RequestSpec;

/** The JSON body of a streamed OpenAI chat completion request. */
public final class RequestEncoder {

    private static final ObjectMapper JSON = new ObjectMapper();

    private RequestEncoder() {
    }

    public static byte[] encode(RequestSpec spec) {
        ObjectNode body = JSON.createObjectNode();
        body.put("model", spec.model());
        ArrayNode messages = body.putArray("messages");
        for (ChatMessage m : spec.messages()) {
            messages.addObject().put("role", m.role()).put("content", m.content());
        }
        body.put("max_tokens", spec.maxTokens());
        if (!spec.sessionKey().isEmpty()) {
            body.put("prompt_cache_key", spec.sessionKey());
        }
        if (!spec.user().isEmpty()) {
            body.put("user", spec.user());
        }
        body.put("stream", true);
        // the final chunk then carries usage.completion_tokens, the server's own token count
        body.putObject("stream_options").put("include_usage", true);
        try {
            return JSON.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot encode a request body", e);
        }
    }
}
