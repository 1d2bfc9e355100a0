package io.inferencegateway.openai;

import java.nio.charset.StandardCharsets;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.inferencegateway.core.GatewayException;

/** Renders errors in the OpenAI shape: {@code {"error":{"message","type","param","code"}}}. */
public final class OpenAiErrors {

    private static final ObjectMapper JSON = new ObjectMapper();

    private OpenAiErrors() {
    }

    public static byte[] body(GatewayException e) {
        return body(e.getMessage(), e.type(), e.param(), e.code());
    }

    public static byte[] body(String message, String type, String param, String code) {
        ObjectNode root = JSON.createObjectNode();
        ObjectNode error = root.putObject("error");
        error.put("message", message);
        error.put("type", type);
        error.put("param", param);
        error.put("code", code);
        try {
            return JSON.writeValueAsBytes(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The same error as one SSE event, for a stream that breaks after it started. */
    public static byte[] sseEvent(GatewayException e) {
        byte[] json = body(e);
        byte[] out = new byte[json.length + 8];
        System.arraycopy("data: ".getBytes(StandardCharsets.US_ASCII), 0, out, 0, 6);
        System.arraycopy(json, 0, out, 6, json.length);
        out[out.length - 2] = '\n';
        out[out.length - 1] = '\n';
        return out;
    }
}
