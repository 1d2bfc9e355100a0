package io.inferencegateway.metrics;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * Collects a response body into one byte array, like {@link HttpResponse.BodySubscribers#ofByteArray()}, but gives up
 * (and cancels the transfer) once the body grows past a limit: a model server that answers {@code /metrics} with
 * something huge must not cost the gateway its memory.
 */
final class BoundedBodySubscriber implements HttpResponse.BodySubscriber<byte[]> {

    private final int maxBytes;
    private final CompletableFuture<byte[]> body = new CompletableFuture<>();
    private final List<ByteBuffer> parts = new ArrayList<>();
    private Flow.Subscription subscription;
    private int size;

    BoundedBodySubscriber(int maxBytes) {
        this.maxBytes = maxBytes;
    }

    static HttpResponse.BodyHandler<byte[]> handler(int maxBytes) {
        return responseInfo -> new BoundedBodySubscriber(maxBytes);
    }

    @Override
    public CompletionStage<byte[]> getBody() {
        return body;
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
        subscription = s;
        s.request(Long.MAX_VALUE);
    }

    @Override
    public void onNext(List<ByteBuffer> items) {
        if (body.isDone()) {
            return;
        }
        for (ByteBuffer item : items) {
            if (item.remaining() > maxBytes - size) {
                subscription.cancel();
                parts.clear();
                body.completeExceptionally(new IOException("response body larger than " + maxBytes + " bytes"));
                return;
            }
            size += item.remaining();
            parts.add(item);
        }
    }

    @Override
    public void onError(Throwable error) {
        parts.clear();
        body.completeExceptionally(error);
    }

    @Override
    public void onComplete() {
        byte[] bytes = new byte[size];
        int at = 0;
        for (ByteBuffer part : parts) {
            int n = part.remaining();
            part.get(bytes, at, n);
            at += n;
        }
        parts.clear();
        body.complete(bytes);
    }
}
