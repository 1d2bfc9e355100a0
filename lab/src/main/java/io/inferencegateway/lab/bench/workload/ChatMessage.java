package io.inferencegateway.lab.bench.workload;

import java.util.Objects;

/** One OpenAI chat message: {@code {"role": ..., "content": ...}}. */
public record ChatMessage(String role, String content) {

    public ChatMessage {
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(content, "content");
    }

    public static ChatMessage system(String content) {
        return new ChatMessage("system", content);
    }

    public static ChatMessage user(String content) {
        return new ChatMessage("user", content);
    }
}
