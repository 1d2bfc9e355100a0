package io.inferencegateway.camel;

import io.inferencegateway.config.TargetConfig;
import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.GatewayError;
import io.inferencegateway.domain.RequestRecord;
import io.inferencegateway.openai.ResponseModelRename;
import io.inferencegateway.openai.ResponseScanner;
import io.inferencegateway.openai.StreamUsage;
import io.inferencegateway.pool.ModelPool;
import io.inferencegateway.pool.Placement;
import io.inferencegateway.proxy.StreamingBody;
import io.inferencegateway.proxy.UpstreamCall;
import io.inferencegateway.proxy.UpstreamFailure;
import io.inferencegateway.proxy.UpstreamListener;
import io.inferencegateway.proxy.UpstreamRequests;
import io.inferencegateway.proxy.UpstreamResponse;
import io.inferencegateway.request.GatewayRequest;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponse;
import org.apache.camel.AsyncCallback;
import org.apache.camel.Exchange;
import org.apache.camel.support.DefaultAsyncProducer;

/**
 * Sends the request to the pod its endpoint names (the one the route's dynamic recipient answered) and completes the
 * exchange as soon as the response headers arrive, with an {@link UpstreamResponse} whose body keeps streaming.
 * Nothing blocks: the exchange continues on the upstream event loop. Before any byte reached the client, a refused
 * connection, a reset before the response headers or a {@code 502}/{@code 503} status (at a global tier also a target's
 * 500, 504 and a cluster's 429 for load) moves the request to another pod or target of its pool (the pool's
 * {@code failover}: bounded attempts, and a retry budget for what was sent); a discarded
 * answer's connection is closed and its body released. Each outcome feeds the pool's outlier detection
 * ({@link io.inferencegateway.pool.OutlierDetector}). A client that goes away cancels the upstream call.
 *
 * <p>The request's record is told the model server's answer, and the relayed body is read as it passes for its first
 * content and its usage ({@link ResponseScanner}); with the pool's {@code streamUsage}, on a route whose
 * dispatch-table line allows it, a stream is asked for its usage ({@link StreamUsage}). The request ends when the
 * relayed body does, or, when nothing is relayed, when its exchange does (request/GatewayRequest).
 */
final class UpstreamProducer extends DefaultAsyncProducer {

    UpstreamProducer(UpstreamEndpoint endpoint) {
        super(endpoint);
    }

    @Override
    public UpstreamEndpoint getEndpoint() {
        return (UpstreamEndpoint) super.getEndpoint();
    }

    @Override
    public boolean process(Exchange exchange, AsyncCallback callback) {
        try {
            new UpstreamAttempt(exchange, callback).start();
            return false;
        } catch (RuntimeException e) {
            exchange.setException(e);
            callback.done(true);
            return true;
        }
    }

    /** One request's way to a model server, across failovers. */
    private final class UpstreamAttempt implements UpstreamListener {
        private final Exchange exchange;
        private final AsyncCallback callback;
        private final GatewayRequest request;
        private final Placement placement;
        private final Channel client;
        private final ChannelFutureListener onClientClosed = f -> cancel();
        private final boolean askedForUsage;
        private volatile UpstreamCall call;

        UpstreamAttempt(Exchange exchange, AsyncCallback callback) {
            this.exchange = exchange;
            this.callback = callback;
            this.request = GatewayExchange.request(exchange);
            this.placement = request.placement();
            ChannelHandlerContext ctx = GatewayExchange.client(exchange);
            this.client = ctx == null ? null : ctx.channel();
            this.askedForUsage = placement.pool().config().streamUsage() && request.route().streamUsage()
                    && StreamUsage.applies(request.inference());
        }

        void start() {
            if (client != null) {
                client.closeFuture().addListener(onClientClosed);
            }
            send(getEndpoint().target());
            commit();
        }

        private void send(Endpoint target) {
            ByteBuf body = askedForUsage ? StreamUsage.withUsage(request.body()) : request.body().retainedDuplicate();
            ModelPool pool = placement.pool();
            TargetConfig t = pool.config().target(target); // a global tier's cluster or provider, else a pod
            if (t != null) {
                request.record().servedBy(t.name(), t.region(), t.provider(), t.price());
            }
            FullHttpRequest upstream = t == null
                    ? UpstreamRequests.forward(request.method(), request.uri(), request.headers(), body, target,
                            request.record().upstreamTraceparent())
                    : UpstreamRequests.forTarget(request.method(), request.uri(), request.headers(), body, t,
                            pool.credential(t.apiKeyFile()), request.inference().model(),
                            request.inference().priority(), request.record().upstreamTraceparent());
            call = getEndpoint().getComponent().client().send(target, upstream, placement.routeTimeout(), this,
                    client == null ? null : client.eventLoop(), getEndpoint().getComponent().tlsFor(target, t));
        }

        private void cancel() {
            UpstreamCall c = call;
            if (c != null) {
                c.cancel();
            }
        }

        @Override
        public void onResponse(HttpResponse head, StreamingBody streamingBody) {
            int status = head.status().code();
            if (status >= 500) {
                placement.pool().outliers().failure(placement.endpoint());
            } else {
                placement.pool().outliers().success(placement.endpoint());
            }
            if (retriable(status, head)) {
                if (failover(Integer.toString(status), true)) {
                    streamingBody.abandon(); // closes that connection; chunks still arriving are released
                    return;
                }
                if (placement.pool().config().target(placement.endpoint()) == null) {
                    // the last pod's 502/503, in whatever shape its engine writes errors: the gateway's own instead
                    streamingBody.abandon();
                    unwatchClient();
                    exchange.setException(GatewayError.upstreamRefused(status));
                    callback.done(false);
                    return;
                }
            }
            RequestRecord record = request.record();
            request.answered(status);
            String asked = request.responseModel();
            if (asked != null) { // a model rewrite's responseModel: requested; the length changes, so chunked
                head.headers().remove(HttpHeaderNames.CONTENT_LENGTH);
                streamingBody.renameModelWith(new ResponseModelRename(asked, streamingBody.isEventStream()));
            }
            streamingBody.scanWith(new ResponseScanner(streamingBody.isEventStream(), askedForUsage,
                    new ResponseScanner.Findings() {
                        @Override
                        public void firstContent() {
                            request.firstToken();
                        }

                        @Override
                        public void usage(int input, int output, int cached) {
                            record.usage(input, output, cached);
                        }
                    }));
            streamingBody.onChunk(request::chunk);
            request.relaying();
            streamingBody.onEnd(outcome -> {
                unwatchClient();
                request.relayEnded(switch (outcome) {
                    case COMPLETED -> RequestRecord.Ending.COMPLETED;
                    case UPSTREAM_FAILED -> RequestRecord.Ending.UPSTREAM_FAILED;
                    case CLIENT_GONE -> RequestRecord.Ending.CLIENT_GONE;
                });
            });
            exchange.getMessage().setBody(new UpstreamResponse(head, streamingBody));
            exchange.getMessage().setHeader(Exchange.HTTP_RESPONSE_CODE, status);
            callback.done(false);
        }

        @Override
        public void onFailure(UpstreamFailure failure) {
            UpstreamFailure.Stage kind = failure.kind();
            if (kind == UpstreamFailure.Stage.CONNECT || kind == UpstreamFailure.Stage.BROKEN) {
                placement.pool().outliers().failure(placement.endpoint());
                // a refused connection sent nothing, so it costs no pod anything: bounded, but not budgeted
                boolean sent = kind == UpstreamFailure.Stage.BROKEN;
                if (failover(sent ? "reset" : "connect", sent)) {
                    return;
                }
            }
            unwatchClient();
            exchange.setException(switch (kind) {
                case TIMEOUT -> GatewayError.upstreamTimeout();
                case CANCELLED -> GatewayError.clientClosed();
                default -> GatewayError.upstreamUnavailable();
            });
            callback.done(false);
        }

        /**
         * Whether another endpoint may serve the request: a pod's 502 or 503; at a global tier also a target's 500 or
         * 504 (a gateway or provider that failed it), and a cluster's 429 for load (its flow control's, which says why
         * in a header; a 429 for its tenant's limits does not, and stands).
         */
        private boolean retriable(int status, HttpResponse head) {
            if (status == 502 || status == 503) {
                return true;
            }
            TargetConfig t = placement.pool().config().target(placement.endpoint());
            return t != null && (status == 500 || status == 504
                    || status == 429 && !t.provider() && head.headers().contains(GatewayError.DROPPED_REASON_HEADER));
        }

        /**
         * Moves the request to another endpoint, when attempts and (for a request the pod received) the pool's retry
         * budget allow and one is left; false leaves the current answer to the client.
         */
        private boolean failover(String reason, boolean budgeted) {
            ModelPool pool = placement.pool();
            if (client != null && !client.isActive()) {
                return false; // the client went away: nobody to serve
            }
            if (placement.attempts() >= pool.config().failover().maxAttempts()
                    || placement.attempts() >= pool.endpoints().size()) {
                return false;
            }
            if (budgeted && !pool.retryBudget().tryRetry()) {
                pool.healthListener().retryBudgetExhausted(pool.name());
                return false;
            }
            long start = request.now();
            Endpoint next = placement.failover();
            if (next == null) {
                return false;
            }
            pool.healthListener().retried(pool.name(), reason);
            request.failedOver(request.now() - start);
            send(next);
            commit();
            return true;
        }

        /**
         * The request is on its way (the write or the connect is issued): now the policy learns from the decision, off
         * the request's own latency (pool/Placement.java). On the thread that decided, for the most part.
         */
        private void commit() {
            placement.commit();
        }

        private void unwatchClient() {
            if (client != null) {
                client.closeFuture().removeListener(onClientClosed);
            }
        }
    }
}
