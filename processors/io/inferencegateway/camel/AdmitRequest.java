package io.inferencegateway.camel;

import java.util.concurrent.Executor;

import io.inferencegateway.config.FlowControlConfig;
import io.inferencegateway.config.SloConfig;
import io.inferencegateway.config.TenantConfig;
import io.inferencegateway.domain.GatewayError;
import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.domain.LatencyTargets;
import io.inferencegateway.domain.Priority;
import io.inferencegateway.domain.Scheduling;
import io.inferencegateway.pool.FlowControl;
import io.inferencegateway.pool.ModelPool;
import io.inferencegateway.pool.Placement;
import io.inferencegateway.request.GatewayRequest;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.util.AsciiString;
import org.apache.camel.AsyncCallback;
import org.apache.camel.Exchange;
import org.apache.camel.support.AsyncProcessorSupport;

/**
 * Flow control on the request path (pool/FlowControl.java): gives the request its priority and fairness key, then lets
 * it go on to the pick at once while its pool has room, or, while every pod of its pool is saturated, lets it wait in
 * the pool's queue without holding a thread. The queue binds it to a pod when one has room (late binding: the
 * request's {@link Placement} is made then, for the {@link EndpointPicker} to answer) and the exchange continues on
 * its own I/O thread; or it answers the 429 that refused it. A client that closes its connection while waiting leaves
 * the queue.
 *
 * <p>Priority: the {@code x-gateway-priority} header ({@code critical}, {@code standard}, {@code sheddable} or an
 * integer) unless the pool's {@code flowControl.priorityHeader} is off, else the authenticated tenant's
 * {@code priority}, else the pool's priority for the model or adapter, else its {@code defaultPriority}. Fairness key:
 * the {@code x-gateway-fairness-id} header, else the tenant's name. Latency targets (docs/slo.md), each of the two on
 * its own: the {@code x-slo-ttft-ms} / {@code x-slo-tpot-ms} header, else the tenant's {@code slo}, else the pool's
 * {@code slo} for the model or adapter, else the pool's default. A bad priority, key or target header is a 400.
 */
public class AdmitRequest extends AsyncProcessorSupport {

    public static final String PRIORITY_HEADER = "x-gateway-priority";
    public static final String FAIRNESS_HEADER = "x-gateway-fairness-id";
    public static final String TTFT_HEADER = "x-slo-ttft-ms";
    public static final String TPOT_HEADER = "x-slo-tpot-ms";
    /** Longest fairness key taken; a longer one is a 400, so that a key cannot pin much memory. */
    public static final int MAX_FAIRNESS_KEY = 128;
    // the names as Netty looks them up: an AsciiString keeps its hash, a String's is computed again on every lookup
    private static final AsciiString PRIORITY = AsciiString.cached(PRIORITY_HEADER);
    private static final AsciiString FAIRNESS = AsciiString.cached(FAIRNESS_HEADER);
    private static final AsciiString TTFT = AsciiString.cached(TTFT_HEADER);
    private static final AsciiString TPOT = AsciiString.cached(TPOT_HEADER);

    @Override
    public boolean process(Exchange exchange, AsyncCallback callback) {
        try {
            GatewayRequest request = GatewayExchange.request(exchange);
            ModelPool pool = request.pool();
            request.service(priority(pool.config().flowControl(), request.parsed(), request.headers(), request.tenant()),
                    targets(pool.config().slo(), request.parsed(), request.headers(), request.tenant()));
            Scheduling scheduling = pool.flowControl().admit(request.parsed());
            if (scheduling != null) {
                request.admitted(scheduling);
                callback.done(true);
                return true;
            }
            Waiting waiting = new Waiting(exchange, callback, request, GatewayExchange.client(exchange));
            waiting.ticket = pool.flowControl().enqueue(request.parsed(),
                    fairnessKey(request.headers(), request.tenant()), waiting);
            waiting.watchClient();
            return false;
        } catch (GatewayError e) {
            exchange.setException(e);
            callback.done(true);
            return true;
        }
    }

    static int priority(FlowControlConfig config, InferenceRequest request, HttpHeaders headers, TenantConfig tenant) {
        String asked = config.priorityHeader() && headers != null ? headers.get(PRIORITY) : null;
        if (asked != null) {
            Integer p = Priority.parse(asked);
            if (p == null) {
                throw GatewayError.invalidRequest(null, "Header " + PRIORITY_HEADER + " must be critical, standard, "
                        + "sheddable or an integer within +-" + Priority.LIMIT + ", got '" + asked + "'");
            }
            return p;
        }
        return tenant != null ? tenant.priority() : config.priorityOf(request.model());
    }

    static LatencyTargets targets(SloConfig config, InferenceRequest request, HttpHeaders headers,
            TenantConfig tenant) {
        LatencyTargets asked = LatencyTargets.NONE;
        if (headers != null) {
            try {
                asked = new LatencyTargets(LatencyTargets.parseMillis(TTFT_HEADER, headers.get(TTFT)),
                        LatencyTargets.parseMillis(TPOT_HEADER, headers.get(TPOT)));
            } catch (IllegalArgumentException e) {
                throw GatewayError.invalidRequest(null, e.getMessage());
            }
        }
        return asked.orElse(tenant == null ? null : tenant.slo()).orElse(config.targetsFor(request.model()));
    }

    static String fairnessKey(HttpHeaders headers, TenantConfig tenant) {
        String key = headers == null ? null : headers.get(FAIRNESS);
        if (key == null && tenant != null) {
            return tenant.name();
        }
        if (key != null && key.length() > MAX_FAIRNESS_KEY) {
            throw GatewayError.invalidRequest(null, "Header " + FAIRNESS_HEADER + " is longer than "
                    + MAX_FAIRNESS_KEY + " characters");
        }
        return key;
    }

    /** One waiting exchange: resumed on its client connection's event loop, whoever released it. */
    private static final class Waiting implements FlowControl.Waiter {
        private final Exchange exchange;
        private final AsyncCallback callback;
        private final GatewayRequest request;
        private final ChannelHandlerContext ctx;
        private final Executor loop;
        private final ChannelFutureListener onClientClosed = f -> clientClosed();
        private FlowControl.Ticket ticket;

        Waiting(Exchange exchange, AsyncCallback callback, GatewayRequest request, ChannelHandlerContext ctx) {
            this.exchange = exchange;
            this.callback = callback;
            this.request = request;
            this.ctx = ctx;
            this.loop = ctx == null ? Runnable::run : ctx.executor();
        }

        /** Runs on the client's event loop, so the listener is in place before any release can run there. */
        void watchClient() {
            if (ctx != null) {
                ctx.channel().closeFuture().addListener(onClientClosed);
            }
        }

        @Override
        public void bound(Placement placement, long pickNanos) {
            loop.execute(() -> {
                unwatchClient();
                admitted();
                request.placed(placement, pickNanos);
                callback.done(false);
            });
        }

        @Override
        public void refused(GatewayError error) {
            loop.execute(() -> {
                unwatchClient();
                admitted();
                exchange.setException(error);
                callback.done(false);
            });
        }

        private void clientClosed() {
            if (ticket != null && ticket.cancel()) {
                refused(GatewayError.clientClosed());
            }
        }

        private void admitted() {
            request.admitted(request.pool().clock().nanoTime() - ticket.enqueuedNanos());
        }

        private void unwatchClient() {
            if (ctx != null) {
                ctx.channel().closeFuture().removeListener(onClientClosed);
            }
        }
    }
}
