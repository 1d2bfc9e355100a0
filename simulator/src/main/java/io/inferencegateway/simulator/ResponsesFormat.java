package io.inferencegateway.simulator;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Bodies of {@code POST /v1/responses} (the OpenAI Responses API as vLLM serves it): the
 * {@code response} object and the named SSE events of a streamed one. One output item, a
 * {@code message} with one {@code output_text} part; its id is derived from the response's.
 * Every event carries a {@code sequence_number} that this object counts up.
 */
final class ResponsesFormat {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final String id;
    private final String itemId;
    private final long createdAt;
    private final String model;
    private final String instructions;
    private final int maxOutputTokens;
    private int sequence;

    ResponsesFormat(String requestId, long createdAt, String model, String instructions, int maxOutputTokens) {
        this.id = "resp_" + requestId;
        this.itemId = "msg_" + requestId;
        this.createdAt = createdAt;
        this.model = model;
        this.instructions = instructions;
        this.maxOutputTokens = maxOutputTokens;
    }

    /** The finished response (the JSON answer, and the payload of response.completed). */
    String completed(String text, SimRequest r) {
        return response("completed", text, r).toString();
    }

    /** The events sent before the first token: created, in_progress, output_item.added, content_part.added. */
    String opening() {
        StringBuilder sse = new StringBuilder(2048);
        ObjectNode created = event("response.created");
        created.set("response", response("in_progress", null, null));
        append(sse, created);
        ObjectNode progress = event("response.in_progress");
        progress.set("response", response("in_progress", null, null));
        append(sse, progress);
        ObjectNode added = event("response.output_item.added");
        added.put("output_index", 0);
        added.set("item", message("in_progress", null));
        append(sse, added);
        ObjectNode part = event("response.content_part.added");
        part.put("item_id", itemId).put("output_index", 0).put("content_index", 0);
        part.set("part", outputText(""));
        append(sse, part);
        return sse.toString();
    }

    /** One response.output_text.delta event: built by hand, it is sent once per token. */
    String delta(String word) {
        String name = "response.output_text.delta";
        return "event: " + name + "\ndata: {\"type\":\"" + name + "\",\"sequence_number\":" + sequence++
                + ",\"item_id\":\"" + itemId + "\",\"output_index\":0,\"content_index\":0,\"delta\":"
                + Json.quote(word) + ",\"logprobs\":[]}\n\n";
    }

    /** The events after the last token: output_text.done, content_part.done, output_item.done, completed. */
    String closing(String text, SimRequest r) {
        StringBuilder sse = new StringBuilder(2048 + 2 * text.length());
        ObjectNode textDone = event("response.output_text.done");
        textDone.put("item_id", itemId).put("output_index", 0).put("content_index", 0).put("text", text);
        textDone.putArray("logprobs");
        append(sse, textDone);
        ObjectNode partDone = event("response.content_part.done");
        partDone.put("item_id", itemId).put("output_index", 0).put("content_index", 0);
        partDone.set("part", outputText(text));
        append(sse, partDone);
        ObjectNode itemDone = event("response.output_item.done");
        itemDone.put("output_index", 0);
        itemDone.set("item", message("completed", text));
        append(sse, itemDone);
        ObjectNode completed = event("response.completed");
        completed.set("response", response("completed", text, r));
        append(sse, completed);
        return sse.toString();
    }

    private ObjectNode event(String type) {
        ObjectNode e = MAPPER.createObjectNode();
        e.put("type", type);
        e.put("sequence_number", sequence++);
        return e;
    }

    private static void append(StringBuilder sse, ObjectNode event) {
        sse.append("event: ").append(event.get("type").asText()).append("\ndata: ").append(event).append("\n\n");
    }

    /** The response object; {@code text == null} means no output yet (and no usage). */
    private ObjectNode response(String status, String text, SimRequest r) {
        ObjectNode o = MAPPER.createObjectNode();
        o.put("id", id);
        o.put("created_at", createdAt);
        o.putNull("incomplete_details");
        if (instructions == null) {
            o.putNull("instructions");
        } else {
            o.put("instructions", instructions);
        }
        o.putNull("metadata");
        o.put("model", model);
        o.put("object", "response");
        ArrayNode output = o.putArray("output");
        if (text != null) {
            output.add(message("completed", text));
        }
        o.put("parallel_tool_calls", true);
        o.put("temperature", 1.0);
        o.put("tool_choice", "auto");
        o.putArray("tools");
        o.put("top_p", 1.0);
        o.put("background", false);
        o.put("max_output_tokens", maxOutputTokens);
        o.putNull("max_tool_calls");
        o.putNull("previous_response_id");
        o.putNull("prompt");
        o.putNull("reasoning");
        o.put("service_tier", "auto");
        o.put("status", status);
        o.putNull("text");
        o.putNull("top_logprobs");
        o.put("truncation", "disabled");
        if (r == null) {
            o.putNull("usage");
        } else {
            ObjectNode u = o.putObject("usage");
            u.put("input_tokens", r.promptLength());
            u.putObject("input_tokens_details").put("cached_tokens", r.cachedPromptTokens());
            u.put("output_tokens", r.outputTokens());
            u.putObject("output_tokens_details").put("reasoning_tokens", 0);
            u.put("total_tokens", r.promptLength() + r.outputTokens());
        }
        o.putNull("user");
        o.putNull("error");
        return o;
    }

    private ObjectNode message(String status, String text) {
        ObjectNode m = MAPPER.createObjectNode();
        m.put("id", itemId);
        m.put("type", "message");
        m.put("role", "assistant");
        m.put("status", status);
        ArrayNode content = m.putArray("content");
        if (text != null) {
            content.add(outputText(text));
        }
        return m;
    }

    private static ObjectNode outputText(String text) {
        ObjectNode p = MAPPER.createObjectNode();
        p.put("type", "output_text");
        p.put("text", text);
        p.putArray("annotations");
        p.putArray("logprobs");
        return p;
    }
}
