package io.inferencegateway.camel;

import java.time.Duration;

import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.GatewayError;
import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.domain.RequestRecord;
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
import io.inferencegateway.runtime.RequestListeners;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponse;
import org.apache.camel.AsyncCallback;
import org.apache.camel.Exchange;
import org.apache.camel.component.netty.NettyConstants;
import org.apache.camel.support.DefaultAsyncProducer;

/**
 * Sends the client's request to the model server and completes the exchange as soon as the response
 * headers arrive, with an {@link UpstreamResponse} whose body keeps streaming. Nothing blocks: the
 * exchange continues on the upstream event loop. Before any byte reached the client, a refused connection, a reset
 * before the response headers or a {@code 502}/{@code 503} status moves the request to another endpoint of its pool
 * (the pool's {@code failover}: bounded attempts, and a retry budget for what was sent); a discarded answer's
 * connection is closed and its body released. Each outcome feeds the pool's outlier detection
 * ({@link io.inferencegateway.pool.OutlierDetector}). A client that goes away cancels the upstream call.
 *
 * <p>When the request has a {@link RequestRecord}, it is told the model server's answer, and the relayed body is read
 * as it passes for its first content and its usage ({@link ResponseScanner}); with the pool's {@code streamUsage} a
 * stream is asked for its usage ({@link StreamUsage}).
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
            new Attempt(exchange, callback).start();
            return false;
        } catch (RuntimeException e) {
            exchange.setException(e);
            callback.done(true);
            return true;
        }
    }

    /** One request's way to a model server, across failovers. */
    private final class Attempt implements UpstreamListener {
        private final Exchange exchange;
        private final AsyncCallback callback;
        private final Placement placement;
        private final ByteBuf body;
        private final HttpHeaders clientHeaders;
        private final String method;
        private final String uri;
        private final Channel client;
        private final ChannelFutureListener onClientClosed = f -> cancel();
        private final RequestRecord record;
        private final RequestListeners listeners;
        private final boolean askedForUsage;
        private volatile UpstreamCall call;

        Attempt(Exchange exchange, AsyncCallback callback) {
            this.exchange = exchange;
            this.callback = callback;
            this.placement = exchange.getProperty(GatewayExchange.PLACEMENT, Placement.class);
            this.record = exchange.getProperty(GatewayExchange.RECORD, RequestRecord.class);
            this.listeners = exchange.getProperty(GatewayExchange.LISTENERS, RequestListeners.class);
            Object raw = exchange.getMessage().getBody();
            ByteBuf clientBody = raw instanceof ByteBuf b ? b
                    : Unpooled.wrappedBuffer(exchange.getMessage().getBody(byte[].class));
            this.clientHeaders = exchange.getProperty(GatewayExchange.REQUEST_HEADERS, HttpHeaders.class);
            this.method = exchange.getMessage().getHeader(Exchange.HTTP_METHOD, "POST", String.class);
            this.uri = exchange.getMessage().getHeader(Exchange.HTTP_URI, "/", String.class);
            ChannelHandlerContext ctx = exchange.getMessage().getHeader(NettyConstants.NETTY_CHANNEL_HANDLER_CONTEXT,
                    ChannelHandlerContext.class);
            this.client = ctx == null ? null : ctx.channel();
            InferenceRequest request = placement == null ? null : placement.request();
            this.askedForUsage = record != null && request != null && placement.pool().config().streamUsage()
                    && StreamUsage.applies(exchange.getMessage().getHeader(Exchange.HTTP_PATH, String.class), request);
            this.body = askedForUsage ? StreamUsage.withUsage(clientBody) : clientBody;
        }

        void start() {
            if (client != null) {
                client.closeFuture().addListener(onClientClosed);
            }
            send(placement != null ? placement.endpoint() : getEndpoint().target());
            commit();
        }

        private void send(Endpoint target) {
            Duration timeout = placement != null ? placement.routeTimeout() : getEndpoint().timeout();
            call = getEndpoint().getComponent().client().send(target,
                    UpstreamRequests.forward(method, uri, clientHeaders, body, target,
                            record == null ? null : record.upstreamTraceparent()),
                    timeout, this, client == null ? null : client.eventLoop());
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
            if (placement != null) {
                if (status >= 500) {
                    placement.pool().outliers().failure(placement.endpoint());
                } else {
                    placement.pool().outliers().success(placement.endpoint());
                }
                if ((status == 502 || status == 503) && failover(status == 502 ? "502" : "503", true)) {
                    streamingBody.abandon(); // closes that connection; chunks still arriving are released
                    return;
                }
            }
            if (record == null) {
                streamingBody.onEnd(outcome -> finish());
            } else {
                record.answered(head.status().code(), listeners.now());
                streamingBody.scanWith(new ResponseScanner(streamingBody.isEventStream(), askedForUsage,
                        new ResponseScanner.Findings() {
                            @Override
                            public void firstContent() {
                                record.firstToken(listeners.now());
                            }

                            @Override
                            public void usage(int input, int output, int cached) {
                                record.usage(input, output, cached);
                            }
                        }));
                streamingBody.onEnd(outcome -> {
                    finish();
                    listeners.end(record, switch (outcome) {
                        case COMPLETED -> RequestRecord.Ending.COMPLETED;
                        case UPSTREAM_FAILED -> RequestRecord.Ending.UPSTREAM_FAILED;
                        case CLIENT_GONE -> RequestRecord.Ending.CLIENT_GONE;
                    });
                });
            }
            exchange.getMessage().setBody(new UpstreamResponse(head, streamingBody));
            exchange.getMessage().setHeader(Exchange.HTTP_RESPONSE_CODE, head.status().code());
            callback.done(false);
        }

        @Override
        public void onFailure(UpstreamFailure failure) {
            UpstreamFailure.Kind kind = failure.kind();
            if (placement != null && (kind == UpstreamFailure.Kind.CONNECT || kind == UpstreamFailure.Kind.BROKEN)) {
                placement.pool().outliers().failure(placement.endpoint());
                // a refused connection sent nothing, so it costs no pod anything: bounded, but not budgeted
                boolean sent = kind == UpstreamFailure.Kind.BROKEN;
                if (failover(sent ? "reset" : "connect", sent)) {
                    return;
                }
            }
            finish();
            exchange.setException(switch (failure.kind()) {
                case TIMEOUT -> GatewayError.upstreamTimeout();
                case CANCELLED -> GatewayError.clientClosed();
                default -> GatewayError.upstreamUnavailable();
            });
            callback.done(false);
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
            long start = record == null ? 0 : listeners.now();
            Endpoint next = placement.failover();
            if (next == null) {
                return false;
            }
            pool.healthListener().retried(pool.name(), reason);
            if (record != null) {
                record.picked(placement.decision(), listeners.now() - start);
                listeners.picked(record);
            }
            send(next);
            commit();
            return true;
        }

        /**
         * The request is on its way (the write or the connect is issued): now the policy learns from the decision, off
         * the request's own latency (pool/Placement.java). On the thread that decided, for the most part.
         */
        private void commit() {
            if (placement != null) {
                placement.commit();
            }
        }

        private void finish() {
            if (askedForUsage) {
                body.release(); // the rewritten body; the client's own is released with the exchange
            }
            if (placement != null) {
                placement.finish();
            }
            if (client != null) {
                client.closeFuture().removeListener(onClientClosed);
            }
        }
    }
}
