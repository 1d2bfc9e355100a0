package io.inferencegateway.proxy;

import io.netty.handler.codec.http.HttpResponse;

/** Receives the outcome of one upstream call, on the upstream channel's event loop. Exactly one method is called once. */
public interface UpstreamListener {

    /** The response headers arrived; the body follows through {@code body}. */
    void onResponse(HttpResponse head, StreamingBody body);

    /** The call failed before any response header arrived. */
    void onFailure(UpstreamFailure failure);
}
