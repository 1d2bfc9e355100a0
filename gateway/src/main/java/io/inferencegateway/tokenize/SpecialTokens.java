package io.inferencegateway.tokenize;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The added tokens of a {@code tokenizer.json} that the tokenizers library splits a text on before anything else
 * (matched on the raw text, longest first, with no space stripped around them), so that the pieces between them encode
 * independently: where a prompt is cut for the cache of pieces.
 */
final class SpecialTokens {

    static final SpecialTokens NONE = new SpecialTokens(Map.of());

    private final Map<String, Integer> ids;
    private final Map<Character, List<String>> byFirstChar = new HashMap<>();

    private SpecialTokens(Map<String, Integer> ids) {
        this.ids = ids;
        for (String token : ids.keySet()) {
            byFirstChar.computeIfAbsent(token.charAt(0), c -> new ArrayList<>()).add(token);
        }
        byFirstChar.values().forEach(l -> l.sort(Comparator.comparingInt(String::length).reversed()));
    }

    /** The added tokens of {@code definition} (a parsed {@code tokenizer.json}) matched on the raw text as they are. */
    static SpecialTokens of(JsonNode definition) {
        Map<String, Integer> ids = new HashMap<>();
        for (JsonNode t : definition.path("added_tokens")) {
            String content = t.path("content").asText("");
            boolean plain = !t.path("normalized").asBoolean(false) && !t.path("lstrip").asBoolean(false)
                    && !t.path("rstrip").asBoolean(false) && !t.path("single_word").asBoolean(false);
            if (plain && !content.isEmpty() && t.path("id").canConvertToInt()) {
                ids.put(content, t.path("id").asInt());
            }
        }
        return ids.isEmpty() ? NONE : new SpecialTokens(Map.copyOf(ids));
    }

    /** The tokens' texts. */
    Iterable<String> texts() {
        return ids.keySet();
    }

    /** The token id of {@code piece} when it is one of these tokens, else -1. */
    int id(String piece) {
        Integer id = ids.get(piece);
        return id == null ? -1 : id;
    }

    /** {@code text} cut before and after every one of these tokens, in order; empty pieces left out. */
    List<String> split(String text) {
        if (ids.isEmpty()) {
            return List.of(text);
        }
        List<String> pieces = new ArrayList<>();
        int start = 0;
        int i = 0;
        while (i < text.length()) {
            String match = matchAt(text, i);
            if (match == null) {
                i++;
                continue;
            }
            if (i > start) {
                pieces.add(text.substring(start, i));
            }
            pieces.add(match);
            i += match.length();
            start = i;
        }
        if (start < text.length() || pieces.isEmpty()) {
            pieces.add(text.substring(start));
        }
        return pieces;
    }

    private String matchAt(String text, int i) {
        List<String> candidates = byFirstChar.get(text.charAt(i));
        if (candidates != null) {
            for (String token : candidates) {
                if (text.startsWith(token, i)) {
                    return token;
                }
            }
        }
        return null;
    }
}
