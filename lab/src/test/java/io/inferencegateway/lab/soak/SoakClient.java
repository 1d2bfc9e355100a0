package io.inferencegateway.lab.soak;

import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.http.Headers;
import com.openai.core.http.HttpResponseFor;
import com.openai.core.http.StreamResponse;
import com.openai.errors.OpenAIIoException;
import com.openai.errors.OpenAIServiceException;
import com.openai.errors.SseException;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionStreamOptions;
import com.openai.models.completions.CompletionUsage;

import io.inferencegateway.lab.soak.CallOutcome.Kind;

/**
 * Sends planned requests through the official OpenAI Java SDK (OkHttp, no retries, a per-request timeout) and says
 * what the client saw. One SDK client per replica and tenant, each with its tenant's API key.
 */
final class SoakClient implements AutoCloseable {

    private static final Pattern RESET = Pattern.compile("(?:(\\d+)m)?(?:(\\d+)(?:\\.(\\d+))?s)?|(\\d+)ms");

    private final OpenAIClient[][] clients;
    private final Duration timeout;
    private final LongSupplier clock;
    private final long origin;

    /** @param origin the epoch millisecond the load started at, which outcomes' times count from */
    SoakClient(List<String> baseUrls, Duration timeout, LongSupplier clock, long origin) {
        this.timeout = timeout;
        this.clock = clock;
        this.origin = origin;
        this.clients = new OpenAIClient[baseUrls.size()][PlannedCall.Tenant.values().length];
        for (int r = 0; r < baseUrls.size(); r++) {
            for (PlannedCall.Tenant t : PlannedCall.Tenant.values()) {
                clients[r][t.ordinal()] = OpenAIOkHttpClient.builder().baseUrl(baseUrls.get(r) + "/v1")
                        .apiKey(t.apiKey()).maxRetries(0).timeout(timeout).build();
            }
        }
    }

    Duration timeout() {
        return timeout;
    }

    CallOutcome send(PlannedCall call, int replica, int incarnation) {
        OpenAIClient client = clients[replica][call.tenant().ordinal()];
        ChatCompletionCreateParams.Builder params = ChatCompletionCreateParams.builder().model(SoakConfig.MODEL)
                .addUserMessage(call.prompt()).maxCompletionTokens(call.maxTokens());
        if (call.stream()) {
            params.streamOptions(ChatCompletionStreamOptions.builder().includeUsage(true).build());
        }
        if (call.priority() != null) {
            params.putAdditionalHeader("x-gateway-priority", call.priority());
        }
        Attempt a = new Attempt(call, replica, incarnation, clock.getAsLong());
        try {
            if (call.stream()) {
                stream(client, params.build(), a);
            } else {
                HttpResponseFor<ChatCompletion> raw = client.chat().completions().withRawResponse()
                        .create(params.build());
                a.status = raw.statusCode();
                a.window = window(raw.headers(), a.sent);
                ChatCompletion answer = raw.parse();
                answer.usage().ifPresent(a::usage);
                a.kind = Kind.COMPLETED;
            }
        } catch (SseException e) {
            a.kind = Kind.ERROR_EVENT;
            a.code = e.code().or(e::type).orElse(null);
            a.shaped = e.type().isPresent() || e.code().isPresent();
            a.detail = e.getMessage();
        } catch (OpenAIServiceException e) {
            a.kind = Kind.ERROR_RESPONSE;
            a.status = e.statusCode();
            a.code = e.code().or(e::type).orElse(null);
            a.shaped = e.type().isPresent() && e.body().isMissing() == false;
            a.window = window(e.headers(), a.sent);
            a.detail = e.getMessage();
        } catch (OpenAIIoException e) {
            a.kind = timedOut(e) ? Kind.TIMED_OUT : a.status == 0 ? Kind.NO_RESPONSE : Kind.BROKEN;
            a.detail = String.valueOf(e.getCause());
        } catch (RuntimeException e) {
            a.kind = a.status == 0 ? Kind.NO_RESPONSE : Kind.BROKEN;
            a.detail = e.toString();
        }
        return a.outcome(clock.getAsLong(), origin);
    }

    private void stream(OpenAIClient client, ChatCompletionCreateParams params, Attempt a) {
        HttpResponseFor<StreamResponse<ChatCompletionChunk>> raw = client.chat().completions().withRawResponse()
                .createStreaming(params);
        a.status = raw.statusCode();
        a.window = window(raw.headers(), a.sent);
        try (StreamResponse<ChatCompletionChunk> chunks = raw.parse()) {
            var it = chunks.stream().iterator();
            while (it.hasNext()) {
                ChatCompletionChunk chunk = it.next();
                a.chunks++;
                chunk.usage().ifPresent(a::usage);
                if (a.call.hangUpAfterChunks() > 0 && a.chunks >= a.call.hangUpAfterChunks()) {
                    a.kind = Kind.HUNG_UP;
                    return; // closing the stream closes the connection mid-stream
                }
            }
            a.kind = Kind.COMPLETED;
        }
    }

    private static boolean timedOut(Throwable e) {
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (c instanceof InterruptedIOException) {
                return true;
            }
        }
        return false;
    }

    /**
     * The window the gateway counted the request in: the header says how long the window had left when it was
     * admitted, a moment after it was sent, so sent time plus that is the window's end, to the header's tenth of a
     * second. -1 when there is no header (an unlimited tenant, or Redis down and the gateway failing open).
     */
    static long window(Headers headers, long sentEpochMillis) {
        List<String> reset = headers.values("x-ratelimit-reset-tokens");
        if (reset.isEmpty()) {
            reset = headers.values("x-ratelimit-reset-requests");
        }
        if (reset.isEmpty()) {
            return -1;
        }
        long end = sentEpochMillis + millis(reset.get(0));
        return Math.round((double) end / SoakConfig.WINDOW_MILLIS) - 1;
    }

    static long millis(String reset) {
        Matcher m = RESET.matcher(reset);
        if (reset.isEmpty() || !m.matches()) {
            throw new IllegalArgumentException("not a reset time: '" + reset + "'");
        }
        if (m.group(4) != null) {
            return Long.parseLong(m.group(4));
        }
        long fraction = m.group(3) == null ? 0
                : Math.round(Double.parseDouble("0." + m.group(3)) * 1000);
        return 60_000 * parse(m.group(1)) + 1_000 * parse(m.group(2)) + fraction;
    }

    private static long parse(String digits) {
        return digits == null ? 0 : Long.parseLong(digits);
    }

    @Override
    public void close() {
        for (OpenAIClient[] row : clients) {
            for (OpenAIClient c : row) {
                c.close();
            }
        }
    }

    /** The client's view of one request while it runs; epoch milliseconds. */
    private static final class Attempt {
        final PlannedCall call;
        final int replica;
        final int incarnation;
        final long sent;
        Kind kind = Kind.NO_RESPONSE;
        int status;
        String code;
        boolean shaped = true;
        int chunks;
        long prompt = -1;
        long completion;
        long window = -1;
        String detail;

        Attempt(PlannedCall call, int replica, int incarnation, long sent) {
            this.call = call;
            this.replica = replica;
            this.incarnation = incarnation;
            this.sent = sent;
        }

        void usage(CompletionUsage u) {
            prompt = u.promptTokens();
            completion = u.completionTokens();
        }

        CallOutcome outcome(long ended, long origin) {
            if (kind == Kind.COMPLETED && call.stream() && prompt < 0) {
                detail = "stream ended without usage";
            }
            return new CallOutcome(call, replica, incarnation, sent - origin, ended - origin, kind, status, code, shaped, chunks, prompt,
                    completion, window, detail == null || detail.length() <= 200 ? detail : detail.substring(0, 200));
        }
    }
}
