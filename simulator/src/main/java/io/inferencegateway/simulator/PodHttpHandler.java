package io.inferencegateway.simulator;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.QueryStringDecoder;

/**
 * One connection to a simulated pod: vLLM's OpenAI-compatible surface plus /metrics, /health and
 * the LoRA admin endpoints. Chat, completions and responses generate on the engine; rerank, score,
 * tokenize, audio and the pooling refusals are answered at once by {@link InstantApi}. Runs on the pod's event loop, the same thread as its engine, so it
 * touches the engine directly. A connection carries one request at a time (reading pauses while
 * a generation runs); if the client goes away mid-generation the request is aborted, as vLLM does.
 */
final class PodHttpHandler extends SimpleChannelInboundHandler<FullHttpRequest> {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    /** max_tokens when the request has none: 256 for chat, 16 for completions (OpenAI's default). */
    static final int DEFAULT_CHAT_MAX_TOKENS = 256;
    static final int DEFAULT_COMPLETION_MAX_TOKENS = 16;
    /** Dimension of /v1/embeddings vectors. */
    static final int EMBEDDING_DIM = 1024;

    private final SimulatedPod pod;
    private final InstantApi instant;
    private Generation active;
    /** Requests that arrived in the same read as a running generation (HTTP pipelining), in order. */
    private final java.util.ArrayDeque<FullHttpRequest> pipelined = new java.util.ArrayDeque<>();

    PodHttpHandler(SimulatedPod pod) {
        this.pod = pod;
        this.instant = new InstantApi(pod);
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
        if (active != null) {
            pipelined.addLast(req.retain());
            return;
        }
        handle(ctx, req);
    }

    private void handle(ChannelHandlerContext ctx, FullHttpRequest req) {
        String path = new QueryStringDecoder(req.uri()).path();
        boolean keepAlive = HttpUtil.isKeepAlive(req);
        HttpMethod method = req.method();
        if (method.equals(HttpMethod.GET) && path.equals("/health")) {
            respond(ctx, HttpResponseStatus.OK, "text/plain", "", keepAlive);
        } else if (method.equals(HttpMethod.GET) && path.equals(pod.engine().dialect().path())) {
            metrics(ctx, keepAlive);
        } else if (method.equals(HttpMethod.GET) && path.equals("/props")
                && pod.engine().dialect() == MetricsDialect.LLAMACPP) {
            respond(ctx, HttpResponseStatus.OK, "application/json", LlamaCppMetricsFormat.props(pod.engine().config()),
                    keepAlive);
        } else if (method.equals(HttpMethod.GET) && path.equals("/v1/models")) {
            EngineCore e = pod.engine();
            respond(ctx, HttpResponseStatus.OK, "application/json",
                    OpenAiFormat.models(e.config().modelName(), e.adapters(), pod.unixSeconds(), e.config().maxModelLen()),
                    keepAlive);
        } else if (method.equals(HttpMethod.POST) && (path.equals("/v1/chat/completions")
                || path.equals("/v1/completions"))) {
            generate(ctx, req, path.equals("/v1/chat/completions") ? Kind.CHAT : Kind.COMPLETION, keepAlive);
        } else if (method.equals(HttpMethod.POST) && path.equals("/v1/responses")) {
            generate(ctx, req, Kind.RESPONSES, keepAlive);
        } else if (method.equals(HttpMethod.POST) && (path.equals("/v1/rerank") || path.equals("/v2/rerank")
                || path.equals("/rerank"))) {
            withJson(ctx, req, keepAlive, instant::rerank);
        } else if (method.equals(HttpMethod.POST) && (path.equals("/v1/score") || path.equals("/score"))) {
            withJson(ctx, req, keepAlive, instant::score);
        } else if (method.equals(HttpMethod.POST) && path.equals("/tokenize")) {
            withJson(ctx, req, keepAlive, instant::tokenize);
        } else if (method.equals(HttpMethod.POST) && path.equals("/detokenize")) {
            withJson(ctx, req, keepAlive, instant::detokenize);
        } else if (method.equals(HttpMethod.POST) && (path.equals("/v1/audio/transcriptions")
                || path.equals("/v1/audio/translations"))) {
            instant.audio(ctx, req, path.endsWith("translations"), keepAlive);
        } else if (method.equals(HttpMethod.POST) && path.equals("/pooling")) {
            withJson(ctx, req, keepAlive, (c, b, k) -> instant.unsupported(c, "Pooling", k));
        } else if (method.equals(HttpMethod.POST) && path.equals("/classify")) {
            withJson(ctx, req, keepAlive, (c, b, k) -> instant.unsupported(c, "Classification", k));
        } else if (method.equals(HttpMethod.POST) && path.equals("/v1/embeddings")) {
            embeddings(ctx, req, keepAlive);
        } else if (method.equals(HttpMethod.POST) && path.equals("/v1/load_lora_adapter")) {
            loadAdapter(ctx, req, keepAlive, true);
        } else if (method.equals(HttpMethod.POST) && path.equals("/v1/unload_lora_adapter")) {
            loadAdapter(ctx, req, keepAlive, false);
        } else {
            respond(ctx, HttpResponseStatus.NOT_FOUND, "application/json", "{\"detail\":\"Not Found\"}", keepAlive);
        }
    }

    /** An endpoint that answers a JSON body at once. */
    private interface JsonEndpoint {
        void answer(ChannelHandlerContext ctx, JsonNode body, boolean keepAlive);
    }

    private void withJson(ChannelHandlerContext ctx, FullHttpRequest req, boolean keepAlive, JsonEndpoint endpoint) {
        JsonNode body = parse(ctx, req, keepAlive);
        if (body != null) {
            endpoint.answer(ctx, body, keepAlive);
        }
    }

    private void metrics(ChannelHandlerContext ctx, boolean keepAlive) {
        pod.countMetricsScrape();
        SimulatedPod.MetricsFault fault = pod.metricsFault();
        if (fault == SimulatedPod.MetricsFault.FAIL) {
            respond(ctx, HttpResponseStatus.INTERNAL_SERVER_ERROR, "text/plain", "Internal Server Error", keepAlive);
            return;
        }
        if (fault == SimulatedPod.MetricsFault.GARBLED) {
            respond(ctx, HttpResponseStatus.OK, "text/plain; version=0.0.4; charset=utf-8",
                    "vllm:num_requests_waiting{model_name=\"x\" not a number\n\u0000\u0001 garbage\n", keepAlive);
            return;
        }
        Runnable send = () -> {
            if (!ctx.channel().isActive()) {
                return;
            }
            EngineCore e = pod.engine();
            respond(ctx, HttpResponseStatus.OK, "text/plain; version=0.0.4; charset=utf-8",
                    e.dialect().render(e, pod.driver().virtualNow()), keepAlive);
        };
        long delay = pod.metricsDelayMillis();
        if (fault == SimulatedPod.MetricsFault.SLOW && delay > 0) {
            ctx.channel().config().setAutoRead(false);
            ctx.executor().schedule(() -> {
                send.run();
                ctx.channel().config().setAutoRead(true);
            }, delay, TimeUnit.MILLISECONDS);
        } else {
            send.run();
        }
    }

    /** The three generating APIs; each builds its prompt its own way, then shares the engine. */
    private enum Kind { CHAT, COMPLETION, RESPONSES }

    private void generate(ChannelHandlerContext ctx, FullHttpRequest req, Kind kind, boolean keepAlive) {
        if (pod.isInferenceUnavailable()) {
            error(ctx, ApiError.unavailable("The server is unavailable (fault injected by the simulator's admin API)."),
                    keepAlive);
            return;
        }
        if (pod.failsThisGeneration()) {
            error(ctx, ApiError.internal("The server failed (fault injected by the simulator's admin API)."), keepAlive);
            return;
        }
        JsonNode body = parse(ctx, req, keepAlive);
        if (body == null) {
            return;
        }
        EngineCore engine = pod.engine();
        String base = engine.config().modelName();
        String model = body.path("model").asText(base);
        String adapter = null;
        if (!model.equals(base)) {
            if (!engine.hasAdapter(model)) {
                error(ctx, ApiError.unknownModel(model), keepAlive);
                return;
            }
            adapter = model;
        }
        int[] prompt;
        String instructions = null;
        if (kind == Kind.RESPONSES) {
            instructions = body.hasNonNull("instructions") ? body.get("instructions").asText() : null;
            List<Tokenizer.ChatMessage> list = responsesMessages(instructions, body.get("input"));
            if (list == null) {
                error(ctx, ApiError.badRequest("'input' must be a string or a list of message items"), keepAlive);
                return;
            }
            prompt = Tokenizer.encode(Tokenizer.chatPromptText(list));
        } else if (kind == Kind.CHAT) {
            JsonNode messages = body.get("messages");
            if (messages == null || !messages.isArray() || messages.isEmpty()) {
                error(ctx, ApiError.badRequest("'messages' must be a non-empty list of messages"), keepAlive);
                return;
            }
            List<Tokenizer.ChatMessage> list = new ArrayList<>();
            for (JsonNode m : messages) {
                list.add(new Tokenizer.ChatMessage(m.path("role").asText("user"), contentText(m.path("content"))));
            }
            prompt = Tokenizer.encode(Tokenizer.chatPromptText(list));
        } else {
            prompt = completionPrompt(body.get("prompt"));
            if (prompt == null) {
                error(ctx, ApiError.badRequest("'prompt' must be a string, a list of one string or a list of token ids"),
                        keepAlive);
                return;
            }
        }
        if (prompt.length == 0) {
            error(ctx, ApiError.badRequest("The prompt is empty."), keepAlive);
            return;
        }
        String maxField = kind == Kind.RESPONSES ? "max_output_tokens" : "max_tokens";
        JsonNode maxNode = kind == Kind.RESPONSES ? body.get("max_output_tokens")
                : body.hasNonNull("max_completion_tokens") ? body.get("max_completion_tokens") : body.get("max_tokens");
        int maxTokens = kind == Kind.COMPLETION ? DEFAULT_COMPLETION_MAX_TOKENS : DEFAULT_CHAT_MAX_TOKENS;
        if (maxNode != null && !maxNode.isNull()) {
            if (!maxNode.canConvertToInt() || maxNode.asInt() < 1) {
                error(ctx, ApiError.badRequest(maxField + " must be at least 1, got " + maxNode.asText() + "."),
                        keepAlive);
                return;
            }
            maxTokens = maxNode.asInt();
        }
        if (body.path("n").asInt(1) != 1) {
            error(ctx, ApiError.badRequest("the simulator supports n=1 only"), keepAlive);
            return;
        }
        String tooLong = engine.validate(prompt.length, maxTokens);
        if (tooLong != null) {
            error(ctx, ApiError.badRequest(tooLong), keepAlive);
            return;
        }
        boolean stream = body.path("stream").asBoolean(false);
        boolean includeUsage = body.path("stream_options").path("include_usage").asBoolean(false);
        boolean chat = kind == Kind.CHAT;
        String requestId = pod.nextRequestId();
        String id = (kind == Kind.CHAT ? "chatcmpl-" : "cmpl-") + requestId;
        ResponsesFormat responses = kind == Kind.RESPONSES
                ? new ResponsesFormat(requestId, pod.unixSeconds(), model, instructions, maxTokens) : null;
        Generation g = new Generation(ctx, kind, stream, includeUsage, keepAlive,
                OpenAiFormat.chunkHead(chat, id, pod.unixSeconds(), model), id, model, responses);
        g.clientRequestId = req.headers().get("x-request-id");
        active = g;
        ctx.channel().config().setAutoRead(false);
        if (stream) {
            HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
            head.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/event-stream; charset=utf-8");
            HttpUtil.setTransferEncodingChunked(head, true);
            HttpUtil.setKeepAlive(head, keepAlive);
            ctx.write(head);
            if (responses != null) {
                ctx.write(new DefaultHttpContent(Unpooled.copiedBuffer(responses.opening(), StandardCharsets.UTF_8)));
            }
            ctx.flush();
        }
        g.request = pod.driver().submit(adapter, prompt, maxTokens, g);
        pod.countReceived();
    }

    private void embeddings(ChannelHandlerContext ctx, FullHttpRequest req, boolean keepAlive) {
        JsonNode body = parse(ctx, req, keepAlive);
        if (body == null) {
            return;
        }
        String base = pod.engine().config().modelName();
        String model = body.path("model").asText(base);
        if (!model.equals(base) && !pod.engine().hasAdapter(model)) {
            error(ctx, ApiError.unknownModel(model), keepAlive);
            return;
        }
        JsonNode input = body.get("input");
        List<String> texts = new ArrayList<>();
        if (input != null && input.isTextual()) {
            texts.add(input.asText());
        } else if (input != null && input.isArray()) {
            for (JsonNode n : input) {
                if (!n.isTextual()) {
                    texts.clear();
                    break;
                }
                texts.add(n.asText());
            }
        }
        if (texts.isEmpty()) {
            error(ctx, ApiError.badRequest("'input' must be a string or a list of strings"), keepAlive);
            return;
        }
        List<float[]> vectors = new ArrayList<>();
        int tokens = 0;
        for (String t : texts) {
            vectors.add(OpenAiFormat.embed(t, EMBEDDING_DIM));
            tokens += Tokenizer.tokenCount(t);
        }
        respond(ctx, HttpResponseStatus.OK, "application/json",
                OpenAiFormat.embeddings("embd-" + pod.nextRequestId(), pod.unixSeconds(), model, vectors, tokens),
                keepAlive);
    }

    private void loadAdapter(ChannelHandlerContext ctx, FullHttpRequest req, boolean keepAlive, boolean load) {
        JsonNode body = parse(ctx, req, keepAlive);
        if (body == null) {
            return;
        }
        String name = body.path("lora_name").asText("");
        if (name.isEmpty() || (load && body.path("lora_path").asText("").isEmpty())) {
            error(ctx, ApiError.badRequest(load ? "Both 'lora_name' and 'lora_path' must be provided."
                    : "'lora_name' needs to be provided to unload a LoRA adapter."), keepAlive);
            return;
        }
        EngineCore e = pod.engine();
        if (load) {
            if (!e.loadAdapter(name)) {
                error(ctx, ApiError.badRequest("The lora adapter '" + name + "' has already been loaded."), keepAlive);
                return;
            }
            respond(ctx, HttpResponseStatus.OK, "text/plain", "Success: LoRA adapter '" + name + "' added successfully.",
                    keepAlive);
        } else {
            if (!e.unloadAdapter(name)) {
                error(ctx, ApiError.notFound("The lora adapter '" + name + "' cannot be found."), keepAlive);
                return;
            }
            respond(ctx, HttpResponseStatus.OK, "text/plain",
                    "Success: LoRA adapter '" + name + "' removed successfully.", keepAlive);
        }
    }

    private JsonNode parse(ChannelHandlerContext ctx, FullHttpRequest req, boolean keepAlive) {
        try {
            JsonNode n = MAPPER.readTree(req.content().toString(StandardCharsets.UTF_8));
            if (n == null || !n.isObject()) {
                error(ctx, ApiError.badRequest("The request body must be a JSON object."), keepAlive);
                return null;
            }
            return n;
        } catch (JsonProcessingException e) {
            error(ctx, ApiError.badRequest("JSON decode error: " + e.getOriginalMessage()), keepAlive);
            return null;
        }
    }

    static String contentText(JsonNode content) {
        if (content.isTextual()) {
            return content.asText();
        }
        if (content.isArray()) {
            StringBuilder sb = new StringBuilder();
            for (JsonNode part : content) {
                String type = part.path("type").asText();
                if (type.equals("text") || type.equals("input_text") || type.equals("output_text")) {
                    if (sb.length() > 0) {
                        sb.append('\n');
                    }
                    sb.append(part.path("text").asText());
                }
            }
            return sb.toString();
        }
        return "";
    }

    /**
     * The chat messages a Responses request stands for: its instructions as a system message, then
     * its input (a string is one user message; items are messages, with or without "type":"message").
     * Null when the input is missing or holds an item that is not a message.
     */
    static List<Tokenizer.ChatMessage> responsesMessages(String instructions, JsonNode input) {
        List<Tokenizer.ChatMessage> list = new ArrayList<>();
        if (instructions != null) {
            list.add(new Tokenizer.ChatMessage("system", instructions));
        }
        if (input != null && input.isTextual()) {
            list.add(new Tokenizer.ChatMessage("user", input.asText()));
        } else if (input != null && input.isArray() && !input.isEmpty()) {
            for (JsonNode item : input) {
                if (!item.isObject() || !item.path("type").asText("message").equals("message")) {
                    return null;
                }
                list.add(new Tokenizer.ChatMessage(item.path("role").asText("user"), contentText(item.path("content"))));
            }
        } else {
            return null;
        }
        return list;
    }

    static int[] completionPrompt(JsonNode p) {
        if (p == null) {
            return null;
        }
        if (p.isTextual()) {
            return Tokenizer.encode(p.asText());
        }
        if (p.isArray() && p.size() == 1 && p.get(0).isTextual()) {
            return Tokenizer.encode(p.get(0).asText());
        }
        if (p.isArray() && p.size() > 0 && p.get(0).isInt()) {
            int[] ids = new int[p.size()];
            for (int i = 0; i < ids.length; i++) {
                if (!p.get(i).isInt()) {
                    return null;
                }
                ids[i] = p.get(i).asInt();
            }
            return ids;
        }
        return null;
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        Generation g = active;
        if (g != null && g.request != null && !g.done && !pod.isKilled()) {
            g.done = true;
            pod.driver().abort(g.request);
            pod.countAborted();
        } else if (g != null && g.request != null && !g.done && pod.isKilled()) {
            g.done = true;
            pod.recordCutByKill(g.clientRequestId);
        }
        active = null;
        while (!pipelined.isEmpty()) {
            pipelined.pollFirst().release();
        }
        super.channelInactive(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
    }

    static void error(ChannelHandlerContext ctx, ApiError e, boolean keepAlive) {
        respond(ctx, HttpResponseStatus.valueOf(e.status()), "application/json", e.json(), keepAlive);
    }

    static void respond(ChannelHandlerContext ctx, HttpResponseStatus status, String contentType, String body,
                        boolean keepAlive) {
        ByteBuf buf = Unpooled.copiedBuffer(body, StandardCharsets.UTF_8);
        FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, buf);
        res.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
        res.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, buf.readableBytes());
        if (keepAlive) {
            res.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
            ctx.writeAndFlush(res);
        } else {
            res.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            ctx.writeAndFlush(res).addListener(ChannelFutureListener.CLOSE);
        }
    }

    /** One generation in flight on this connection; receives the engine's tokens. */
    private final class Generation implements SimRequest.Listener {
        final ChannelHandlerContext ctx;
        final boolean chat;
        final boolean stream;
        final boolean includeUsage;
        final boolean keepAlive;
        final String head;
        final String id;
        final String model;
        final ResponsesFormat responses;
        final StringBuilder text;
        SimRequest request;
        /** The client's X-Request-Id, to name the streams a kill cuts. */
        String clientRequestId;
        boolean done;
        byte[] tokenPrefix;
        byte[] tokenSuffix;

        Generation(ChannelHandlerContext ctx, Kind kind, boolean stream, boolean includeUsage, boolean keepAlive,
                   String head, String id, String model, ResponsesFormat responses) {
            this.ctx = ctx;
            this.chat = kind == Kind.CHAT;
            this.stream = stream;
            this.includeUsage = includeUsage;
            this.keepAlive = keepAlive;
            this.head = head;
            this.id = id;
            this.model = model;
            this.responses = responses;
            this.text = stream && responses == null ? null : new StringBuilder();
        }

        @Override
        public void onToken(SimRequest r, int index, String word, long nowNanos) {
            if (done) {
                return;
            }
            if (text != null) {
                text.append(word);
            }
            if (!stream) {
                return;
            }
            if (responses != null) {
                ctx.writeAndFlush(new DefaultHttpContent(Unpooled.copiedBuffer(responses.delta(word),
                        StandardCharsets.UTF_8)));
                return;
            }
            boolean last = r.outputTokens() >= r.maxTokens();
            if (tokenPrefix == null) {
                String marker = "\"@WORD@\"";
                String sample = chat ? OpenAiFormat.chatTokenChunk(head, "@WORD@", null)
                        : OpenAiFormat.completionTokenChunk(head, "@WORD@", null);
                int at = sample.indexOf(marker);
                tokenPrefix = ("data: " + sample.substring(0, at)).getBytes(StandardCharsets.UTF_8);
                tokenSuffix = (sample.substring(at + marker.length()) + "\n\n").getBytes(StandardCharsets.UTF_8);
            }
            ByteBuf buf;
            if (last || (chat && index == 0)) {
                // rare chunks: built as strings
                StringBuilder sse = new StringBuilder(512);
                if (chat && index == 0) {
                    event(sse, OpenAiFormat.chatRoleChunk(head));
                }
                String finish = last ? "length" : null;
                event(sse, chat ? OpenAiFormat.chatTokenChunk(head, word, finish)
                        : OpenAiFormat.completionTokenChunk(head, word, finish));
                buf = Unpooled.copiedBuffer(sse, StandardCharsets.UTF_8);
            } else {
                // the hot path: fixed bytes around a 4-char ASCII word that needs no escaping
                buf = ctx.alloc().buffer(tokenPrefix.length + word.length() + 2 + tokenSuffix.length);
                buf.writeBytes(tokenPrefix).writeByte('"');
                buf.writeCharSequence(word, StandardCharsets.US_ASCII);
                buf.writeByte('"').writeBytes(tokenSuffix);
            }
            ctx.writeAndFlush(new DefaultHttpContent(buf));
        }

        @Override
        public void onFinish(SimRequest r, String reason, long nowNanos) {
            if (done) {
                return;
            }
            done = true;
            active = null;
            if (!reason.equals("abort")) {
                pod.countServed();
            }
            if (stream) {
                StringBuilder sse = new StringBuilder(256);
                if (responses != null) {
                    sse.append(responses.closing(text.toString(), r));
                } else {
                    if (includeUsage) {
                        event(sse, OpenAiFormat.usageChunk(head, r));
                    }
                    sse.append("data: [DONE]\n\n");
                }
                ctx.write(new DefaultHttpContent(Unpooled.copiedBuffer(sse, StandardCharsets.UTF_8)));
                if (keepAlive) {
                    ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT);
                } else {
                    ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT).addListener(ChannelFutureListener.CLOSE);
                }
            } else {
                String body = responses != null ? responses.completed(text.toString(), r)
                        : chat ? OpenAiFormat.chatCompletion(id, pod.unixSeconds(), model, text.toString(), reason, r)
                        : OpenAiFormat.completion(id, pod.unixSeconds(), model, text.toString(), reason, r);
                respond(ctx, HttpResponseStatus.OK, "application/json", body, keepAlive);
            }
            ctx.channel().config().setAutoRead(true);
            while (active == null && !pipelined.isEmpty()) {
                FullHttpRequest next = pipelined.pollFirst();
                try {
                    handle(ctx, next);
                } finally {
                    next.release();
                }
            }
        }

        private void event(StringBuilder sse, String json) {
            sse.append("data: ").append(json).append("\n\n");
        }
    }
}
