package io.inferencegateway.lab.bench.workload;

import java.util.List;

/**
 * How the simulator counts prompt tokens, so that workload sizes written in tokens mean the same on
 * both sides: chat messages are serialized as {@code "<|" + role + "|>\n" + content + "\n"} and every
 * four characters of that text are one token. A 2,048-token system prompt is 8,192 characters.
 */
public final class TokenContract {

    public static final int CHARS_PER_TOKEN = 4;

    private TokenContract() {
    }

    /** Characters of message content that make {@code tokens} tokens. */
    public static int chars(int tokens) {
        return tokens * CHARS_PER_TOKEN;
    }

    public static String serialize(List<ChatMessage> messages) {
        StringBuilder sb = new StringBuilder(serializedLength(messages));
        for (ChatMessage m : messages) {
            sb.append("<|").append(m.role()).append("|>\n").append(m.content()).append('\n');
        }
        return sb.toString();
    }

    public static int serializedLength(List<ChatMessage> messages) {
        int length = 0;
        for (ChatMessage m : messages) {
            length += 2 + m.role().length() + 3 + m.content().length() + 1;
        }
        return length;
    }

    /** Prompt tokens of the serialized messages (whole tokens; a partial last token is not counted). */
    public static int promptTokens(List<ChatMessage> messages) {
        return serializedLength(messages) / CHARS_PER_TOKEN;
    }
}
