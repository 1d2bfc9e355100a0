package io.inferencegateway.shadow;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.NanoClock;
import io.inferencegateway.openai.ResponseScanner;
import io.inferencegateway.pool.ModelPool;
import io.inferencegateway.proxy.StreamingBody;
import io.inferencegateway.proxy.StreamingBody.RelayOutcome;
import io.inferencegateway.proxy.UpstreamClient;
import io.inferencegateway.proxy.UpstreamFailure;
import io.inferencegateway.proxy.UpstreamListener;
import io.inferencegateway.proxy.UpstreamTls;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.util.ReferenceCountUtil;

/**
 * One shadow copy on its way to the candidate's pod: its answer is read to the end and let go chunk by chunk (nothing
 * is held), its status, first content, usage and end are counted, and when it ends, however it ends, it gives back its
 * place in the budget and its in-flight count on the pod. Runs on its upstream connection's event loop.
 */
final class ShadowCall implements UpstreamListener {

    private final ShadowCopy copy;
    private final String candidate;
    private final ModelPool pool;
    private final Endpoint pod;
    private final AtomicInteger budget;
    private final ShadowMeters.Pair meters;
    private final NanoClock clock;
    private final AtomicBoolean ended = new AtomicBoolean();
    private long sentNanos;
    private long firstTokenNanos;
    private int status;

    ShadowCall(ShadowCopy copy, String candidate, ModelPool pool, Endpoint pod, int promptTokens, AtomicInteger budget,
            ShadowMeters.Pair meters, NanoClock clock) {
        this.copy = copy;
        this.candidate = candidate;
        this.pool = pool;
        this.pod = pod;
        this.budget = budget;
        this.meters = meters;
        this.clock = clock;
        pool.inFlight().started(pod, promptTokens);
    }

    void start(UpstreamClient client, FullHttpRequest request, Duration timeout, EventLoop loop, UpstreamTls tls) {
        sentNanos = clock.nanoTime();
        try {
            client.send(pod, request, timeout, this, loop, tls);
        } catch (RuntimeException e) { // the client could not take the call (it is closing): the request is still ours
            ReferenceCountUtil.safeRelease(request);
            end(ShadowMeters.ShadowOutcome.FAILED, e.toString());
        }
    }

    @Override
    public void onResponse(HttpResponse head, StreamingBody body) {
        status = head.status().code();
        meters.answered(status);
        body.scanWith(new ResponseScanner(body.isEventStream(), false, new ResponseScanner.Findings() {
            @Override
            public void firstContent() {
                if (firstTokenNanos == 0) {
                    firstTokenNanos = clock.nanoTime();
                    meters.firstToken(firstTokenNanos - sentNanos);
                }
            }

            @Override
            public void usage(int input, int output, int cached) {
                meters.usage(input, output);
            }
        }));
        body.onEnd(outcome -> {
            boolean answered = outcome == RelayOutcome.COMPLETED && status < 500;
            if (answered && firstTokenNanos == 0) { // a plain answer: its first token is its end
                firstTokenNanos = clock.nanoTime();
                meters.firstToken(firstTokenNanos - sentNanos);
            }
            end(answered ? ShadowMeters.ShadowOutcome.SENT : ShadowMeters.ShadowOutcome.FAILED, outcome.name());
        });
        body.discard();
    }

    @Override
    public void onFailure(UpstreamFailure failure) {
        end(ShadowMeters.ShadowOutcome.FAILED, failure.kind() + ": " + failure.detail());
    }

    /** Once: the budget and the pod's slot back, the pool's queue told the pod has room, the outcome counted. */
    private void end(ShadowMeters.ShadowOutcome outcome, String detail) {
        if (!ended.compareAndSet(false, true)) {
            return;
        }
        long now = clock.nanoTime();
        budget.decrementAndGet();
        pool.inFlight().finished(pod);
        pool.flowControl().dispatch();
        meters.ended(outcome);
        meters.duration(now - sentNanos);
        if (ShadowTraffic.LOG.isDebugEnabled()) {
            ShadowTraffic.LOG.debug("shadow copy pool={} candidate={} pod={} request_id={} outcome={} status={} "
                    + "ttft_ms={} duration_ms={} ({})", copy.pool().name(), candidate, pod, copy.requestId(),
                    outcome.label, status, firstTokenNanos == 0 ? "-" : (firstTokenNanos - sentNanos) / 1_000_000,
                    (now - sentNanos) / 1_000_000, detail);
        }
    }
}
