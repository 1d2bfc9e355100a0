package io.inferencegateway.camel;

import java.util.concurrent.Executor;

import io.inferencegateway.domain.GatewayError;
import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.domain.Scheduling;
import io.inferencegateway.pool.FlowControl;
import io.inferencegateway.pool.ModelPool;
import io.inferencegateway.pool.Placement;
import io.inferencegateway.request.GatewayRequest;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import org.apache.camel.AsyncCallback;
import org.apache.camel.Exchange;
import org.apache.camel.support.AsyncProcessorSupport;

/**
 * Flow control on the request path (pool/FlowControl.java): lets the classified request (its priority, targets and
 * fairness key decided by the step before, {@link ClassifyRequest}) go on to the pick at once while its pool has room,
 * or, while every pod of its pool is saturated, lets it wait in the pool's queue without holding a thread. The queue
 * binds it to a pod when one has room (late binding: the request's {@link Placement} is made then, for the
 * {@link EndpointPicker} to answer) and the exchange continues on its own I/O thread; or it answers the 429 that
 * refused it. A client that closes its connection while waiting leaves the queue.
 */
public class AdmitRequest extends AsyncProcessorSupport {

    @Override
    public boolean process(Exchange exchange, AsyncCallback callback) {
        try {
            GatewayRequest request = GatewayExchange.request(exchange);
            ModelPool pool = request.pool();
            InferenceRequest classified = request.inference();
            Scheduling scheduling = pool.flowControl().admit(classified);
            if (scheduling != null) {
                request.admitted(scheduling);
                callback.done(true);
                return true;
            }
            Waiting waiting = new Waiting(exchange, callback, request, GatewayExchange.client(exchange));
            waiting.ticket = pool.flowControl().enqueue(classified, waiting);
            waiting.watchClient();
            return false;
        } catch (GatewayError e) {
            exchange.setException(e);
            callback.done(true);
            return true;
        }
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
