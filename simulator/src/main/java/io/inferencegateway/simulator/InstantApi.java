package io.inferencegateway.simulator;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.multipart.Attribute;
import io.netty.handler.codec.http.multipart.DefaultHttpDataFactory;
import io.netty.handler.codec.http.multipart.HttpData;
import io.netty.handler.codec.http.multipart.HttpPostRequestDecoder;
import io.netty.handler.codec.http.multipart.InterfaceHttpData;

/**
 * The parts of vLLM's surface that {@link PodHttpHandler} answers at once, without the engine:
 * rerank, score, tokenize/detokenize, audio transcription/translation (stub text) and the pooling
 * APIs a generative model refuses. They cost no engine step, so they stay out of /metrics'
 * running and waiting gauges. Runs on the pod's event loop.
 */
final class InstantApi {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    /** Words of the stub transcript: one per this many bytes of audio (at least one, at most 256). */
    static final int AUDIO_BYTES_PER_WORD = 1024;

    private final SimulatedPod pod;

    InstantApi(SimulatedPod pod) {
        this.pod = pod;
    }

    /** {@code /v1/rerank}, {@code /v2/rerank}, {@code /rerank}: documents sorted by relevance to the query. */
    void rerank(ChannelHandlerContext ctx, JsonNode body, boolean keepAlive) {
        String model = model(ctx, body, keepAlive);
        if (model == null) {
            return;
        }
        JsonNode query = body.get("query");
        JsonNode documents = body.get("documents");
        List<String> docs = new ArrayList<>();
        if (documents != null && documents.isArray()) {
            for (JsonNode d : documents) {
                if (d.isTextual()) {
                    docs.add(d.asText());
                } else if (d.isObject() && d.path("text").isTextual()) {
                    docs.add(d.get("text").asText());
                } else {
                    docs = null;
                    break;
                }
            }
        }
        if (query == null || !query.isTextual() || documents == null || !documents.isArray() || docs == null) {
            error(ctx, ApiError.badRequest("'query' must be a string and 'documents' a list of strings"), keepAlive);
            return;
        }
        List<Ranked> ranked = new ArrayList<>();
        int tokens = 0;
        for (int i = 0; i < docs.size(); i++) {
            ranked.add(new Ranked(i, relevance(query.asText(), docs.get(i))));
            tokens += Tokenizer.tokenCount(query.asText()) + Tokenizer.tokenCount(docs.get(i));
        }
        ranked.sort(Comparator.comparingDouble(Ranked::score).reversed().thenComparingInt(Ranked::index));
        int topN = body.path("top_n").asInt(0);
        if (topN > 0 && topN < ranked.size()) {
            ranked = ranked.subList(0, topN);
        }
        ObjectNode out = MAPPER.createObjectNode();
        out.put("id", "rerank-" + pod.nextRequestId());
        out.put("model", model);
        out.putObject("usage").put("total_tokens", tokens);
        ArrayNode results = out.putArray("results");
        for (Ranked r : ranked) {
            ObjectNode res = results.addObject();
            res.put("index", r.index());
            res.putObject("document").put("text", docs.get(r.index()));
            res.put("relevance_score", r.score());
        }
        json(ctx, out, keepAlive);
    }

    private record Ranked(int index, double score) {
    }

    /** {@code /v1/score}, {@code /score}: one score per (text_1, text_2) pair; a single text_1 pairs with each text_2. */
    void score(ChannelHandlerContext ctx, JsonNode body, boolean keepAlive) {
        String model = model(ctx, body, keepAlive);
        if (model == null) {
            return;
        }
        List<String> left = texts(body.get("text_1"));
        List<String> right = texts(body.get("text_2"));
        if (left == null || right == null || left.isEmpty() || right.isEmpty()) {
            error(ctx, ApiError.badRequest("'text_1' and 'text_2' must each be a string or a non-empty list of strings"),
                    keepAlive);
            return;
        }
        if (left.size() != 1 && left.size() != right.size()) {
            error(ctx, ApiError.badRequest("text_1 must hold one text or as many texts as text_2 (" + right.size()
                    + "), got " + left.size() + "."), keepAlive);
            return;
        }
        ObjectNode out = MAPPER.createObjectNode();
        out.put("id", "score-" + pod.nextRequestId());
        out.put("object", "list");
        out.put("created", pod.unixSeconds());
        out.put("model", model);
        ArrayNode data = out.putArray("data");
        int tokens = 0;
        for (int i = 0; i < right.size(); i++) {
            String a = left.get(left.size() == 1 ? 0 : i);
            data.addObject().put("index", i).put("object", "score").put("score", relevance(a, right.get(i)));
            tokens += Tokenizer.tokenCount(a) + Tokenizer.tokenCount(right.get(i));
        }
        usage(out, tokens);
        json(ctx, out, keepAlive);
    }

    /** {@code /tokenize}: the simulator's tokens of a prompt, or of chat messages serialized as chat does. */
    void tokenize(ChannelHandlerContext ctx, JsonNode body, boolean keepAlive) {
        if (model(ctx, body, keepAlive) == null) {
            return;
        }
        String text;
        if (body.path("prompt").isTextual()) {
            text = body.get("prompt").asText();
        } else if (body.path("messages").isArray()) {
            List<Tokenizer.ChatMessage> list = new ArrayList<>();
            for (JsonNode m : body.get("messages")) {
                list.add(new Tokenizer.ChatMessage(m.path("role").asText("user"),
                        PodHttpHandler.contentText(m.path("content"))));
            }
            text = Tokenizer.chatPromptText(list);
        } else {
            error(ctx, ApiError.badRequest("Either 'prompt' (a string) or 'messages' must be given."), keepAlive);
            return;
        }
        boolean strs = body.path("return_token_strs").asBoolean(false);
        String[] chunks = strs ? new String[Tokenizer.tokenCount(text)] : null;
        int[] ids = pod.vocabulary().tokenize(text, chunks);
        ObjectNode out = MAPPER.createObjectNode();
        out.put("count", ids.length);
        out.put("max_model_len", pod.engine().config().maxModelLen());
        ArrayNode tokens = out.putArray("tokens");
        for (int id : ids) {
            tokens.add(id);
        }
        if (strs) {
            ArrayNode s = out.putArray("token_strs");
            for (String c : chunks) {
                s.add(c);
            }
        } else {
            out.putNull("token_strs");
        }
        json(ctx, out, keepAlive);
    }

    /** {@code /detokenize}: the text of token ids the simulator handed out (by /tokenize or as generated words). */
    void detokenize(ChannelHandlerContext ctx, JsonNode body, boolean keepAlive) {
        if (model(ctx, body, keepAlive) == null) {
            return;
        }
        JsonNode tokens = body.get("tokens");
        if (tokens == null || !tokens.isArray()) {
            error(ctx, ApiError.badRequest("'tokens' must be a list of token ids"), keepAlive);
            return;
        }
        StringBuilder text = new StringBuilder();
        for (JsonNode t : tokens) {
            String chunk = t.canConvertToInt() ? pod.vocabulary().chunk(t.asInt()) : null;
            if (chunk == null) {
                error(ctx, ApiError.badRequest("Token id " + t.asText() + " is out of vocabulary (the simulator "
                        + "decodes ids it gave out from /tokenize and generated words)."), keepAlive);
                return;
            }
            text.append(chunk);
        }
        ObjectNode out = MAPPER.createObjectNode();
        out.put("prompt", text.toString());
        json(ctx, out, keepAlive);
    }

    /**
     * {@code /v1/audio/transcriptions} and {@code /v1/audio/translations}: multipart/form-data with a
     * {@code file}; the answer is stub text whose length follows the file's size.
     */
    void audio(ChannelHandlerContext ctx, FullHttpRequest req, boolean translate, boolean keepAlive) {
        String model = null;
        String format = "json";
        long fileBytes = -1;
        HttpPostRequestDecoder decoder = null;
        try {
            decoder = new HttpPostRequestDecoder(new DefaultHttpDataFactory(false), req);
            if (!decoder.isMultipart()) {
                error(ctx, ApiError.badRequest("The request body must be multipart/form-data."), keepAlive);
                return;
            }
            for (InterfaceHttpData part : decoder.getBodyHttpDatas()) {
                if (part instanceof HttpData d && part.getName().equals("file")) {
                    // a FileUpload when the part has a filename, else an Attribute: the size is what counts
                    fileBytes = d.length();
                } else if (part instanceof Attribute a) {
                    String value = a.getValue();
                    switch (part.getName()) {
                        case "model" -> model = value;
                        case "response_format" -> format = value;
                        default -> {
                            // language, prompt, temperature...: accepted, no effect on the stub text
                        }
                    }
                }
            }
        } catch (HttpPostRequestDecoder.ErrorDataDecoderException | IOException
                 | IllegalArgumentException e) {
            error(ctx, ApiError.badRequest("Invalid multipart body: " + e.getMessage()), keepAlive);
            return;
        } finally {
            if (decoder != null) {
                decoder.destroy();
            }
        }
        String base = pod.engine().config().modelName();
        if (model != null && !model.equals(base) && !pod.engine().hasAdapter(model)) {
            error(ctx, ApiError.unknownModel(model), keepAlive);
            return;
        }
        if (fileBytes < 0) {
            error(ctx, ApiError.badRequest("The 'file' field (the audio) is missing."), keepAlive);
            return;
        }
        if (!format.equals("json") && !format.equals("text")) {
            error(ctx, ApiError.badRequest("The simulator supports response_format `json` or `text`, got `"
                    + format + "`."), keepAlive);
            return;
        }
        String text = stubTranscript(fileBytes, translate);
        if (format.equals("text")) {
            PodHttpHandler.respond(ctx, HttpResponseStatus.OK, "text/plain; charset=utf-8", text, keepAlive);
        } else {
            ObjectNode out = MAPPER.createObjectNode();
            out.put("text", text);
            json(ctx, out, keepAlive);
        }
    }

    /** {@code /pooling} and {@code /classify}: a generative model has no pooler, so vLLM refuses. */
    void unsupported(ChannelHandlerContext ctx, String api, boolean keepAlive) {
        error(ctx, ApiError.badRequest("The model does not support " + api + " API"), keepAlive);
    }

    /** Deterministic text of an audio file of {@code bytes} bytes: one generated word per KiB. */
    static String stubTranscript(long bytes, boolean translate) {
        int words = (int) Math.min(256, 1 + bytes / AUDIO_BYTES_PER_WORD);
        StringBuilder sb = new StringBuilder(words * 4);
        long seed = bytes * 31 + (translate ? 1 : 0);
        for (int i = 0; i < words; i++) {
            sb.append(Tokenizer.generatedWord(seed, i));
        }
        return sb.substring(1);
    }

    /**
     * Relevance of {@code b} to {@code a} in [0, 1]: the Jaccard overlap of their lower-cased word
     * sets (1 for the same words, 0 for none shared).
     */
    static double relevance(String a, String b) {
        Set<String> x = words(a);
        Set<String> y = words(b);
        if (x.isEmpty() && y.isEmpty()) {
            return 1.0;
        }
        Set<String> common = new HashSet<>(x);
        common.retainAll(y);
        Set<String> union = new HashSet<>(x);
        union.addAll(y);
        return (double) common.size() / union.size();
    }

    private static Set<String> words(String s) {
        Set<String> out = new HashSet<>();
        for (String w : s.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
            if (!w.isEmpty()) {
                out.add(w);
            }
        }
        return out;
    }

    private static List<String> texts(JsonNode n) {
        List<String> out = new ArrayList<>();
        if (n != null && n.isTextual()) {
            out.add(n.asText());
            return out;
        }
        if (n == null || !n.isArray()) {
            return null;
        }
        for (JsonNode t : n) {
            if (!t.isTextual()) {
                return null;
            }
            out.add(t.asText());
        }
        return out;
    }

    /** The request's model (the base model when absent), or null after answering 404 for an unknown one. */
    private String model(ChannelHandlerContext ctx, JsonNode body, boolean keepAlive) {
        String base = pod.engine().config().modelName();
        String model = body.path("model").asText(base);
        if (!model.equals(base) && !pod.engine().hasAdapter(model)) {
            error(ctx, ApiError.unknownModel(model), keepAlive);
            return null;
        }
        return model;
    }

    private static void usage(ObjectNode out, int tokens) {
        ObjectNode u = out.putObject("usage");
        u.put("prompt_tokens", tokens);
        u.put("total_tokens", tokens);
        u.put("completion_tokens", 0);
        u.putNull("prompt_tokens_details");
    }

    private static void json(ChannelHandlerContext ctx, ObjectNode out, boolean keepAlive) {
        PodHttpHandler.respond(ctx, HttpResponseStatus.OK, "application/json", out.toString(), keepAlive);
    }

    private static void error(ChannelHandlerContext ctx, ApiError e, boolean keepAlive) {
        PodHttpHandler.error(ctx, e, keepAlive);
    }
}
