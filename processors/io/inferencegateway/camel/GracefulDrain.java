package io.inferencegateway.camel;

import java.time.Duration;

import io.inferencegateway.config.Durations;
import io.inferencegateway.domain.GatewayError;
import io.inferencegateway.domain.InFlightRequests;
import org.apache.camel.CamelContext;
import org.apache.camel.CamelContextAware;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;
import org.apache.camel.component.netty.http.NettyHttpConstants;
import org.apache.camel.support.LifecycleStrategySupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lets what is in flight finish before the gateway stops (SIGTERM, or any stop of the Camel context).
 *
 * <p>Camel calls {@link #onContextStopping} on the stopping thread before it stops a single route, so the
 * netty-http listener and its connections, and the I/O threads (GatewayEventLoops, closed with the beans),
 * are all still up while this waits. That matters because netty-http closes every open connection when its
 * consumer stops, and Camel's own graceful shutdown only waits for exchanges: an exchange that relays a
 * stream completes when the response head is written, while its body is still streaming. So the wait here
 * counts both the exchanges Camel has in flight and the responses the gateway is still relaying
 * (InFlightRequests counts a request until its body ended).
 *
 * <p>The order: at once {@code GET /ready} answers 503 draining and every response closes its connection;
 * for {@code drainDelay} new requests are still served (a load balancer needs that long to see not-ready);
 * then new work gets 503 {@code shutting_down} (routes whose dispatch-table line says {@code drain=answer}, the
 * probes and {@code /metrics}, still answer); when nothing is
 * in flight, or {@code drainTimeout} after the stop began, Camel goes on stopping: the listener closes,
 * what is left is cut, the process exits.
 */
public final class GracefulDrain extends LifecycleStrategySupport implements CamelContextAware, Processor {

    private static final Logger LOG = LoggerFactory.getLogger(GracefulDrain.class);

    /** Its name in routes/gateway-beans.camel.yaml. */
    static final String BEAN = "gracefulDrain";

    private enum DrainState { SERVING, DRAINING, REFUSING }

    private final InFlightRequests inFlight;
    private CamelContext camelContext;
    private volatile DrainState state = DrainState.SERVING;
    private Duration drainDelay = Duration.ZERO;
    private Duration drainTimeout = Duration.ofSeconds(30);

    /** @param inFlight the gateway's requests in flight, whose responses may still be relayed */
    public GracefulDrain(InFlightRequests inFlight) {
        this.inFlight = inFlight;
    }

    /** How long new requests are still served after the stop began (default 0: Kubernetes' preStop waits instead). */
    public void setDrainDelay(String duration) {
        drainDelay = Durations.parse(duration);
    }

    /** The longest the stop waits for what is in flight, counted from its start (default 30 s). */
    public void setDrainTimeout(String duration) {
        drainTimeout = Durations.parse(duration);
    }

    @Override
    public void setCamelContext(CamelContext camelContext) {
        if (this.camelContext == camelContext) {
            return; // addLifecycleStrategy hands the context back
        }
        this.camelContext = camelContext;
        camelContext.addLifecycleStrategy(this);
    }

    @Override
    public CamelContext getCamelContext() {
        return camelContext;
    }

    /** True once the stop began: {@code GET /ready} answers 503 (Readiness). */
    public boolean draining() {
        return state != DrainState.SERVING;
    }

    /** The ingress step after dispatch (routes/openai-ingress.camel.yaml). */
    @Override
    public void process(Exchange exchange) {
        DrainState now = state;
        if (now == DrainState.SERVING) {
            return;
        }
        // clients reconnect, through the load balancer, to an instance that stays
        exchange.setProperty(NettyHttpConstants.CONNECTION, "close");
        if (now == DrainState.REFUSING && !GatewayExchange.request(exchange).route().answeredWhileDraining()) {
            throw GatewayError.shuttingDown();
        }
    }

    @Override
    public void onContextStopping(CamelContext context) {
        // the YAML DSL may build a bean more than once while it loads routes/gateway-beans.camel.yaml; only the one
        // bound as gracefulDrain (the one Readiness and the ingress use) drains
        if (state != DrainState.SERVING || context.getRegistry().lookupByName(BEAN) != this) {
            return;
        }
        long start = System.nanoTime();
        long deadline = start + drainTimeout.toNanos();
        state = DrainState.DRAINING;
        LOG.info("Draining: not ready; serving new requests for {} more, then waiting up to {} for {} in flight",
                drainDelay, drainTimeout, inFlight(context));
        try {
            sleepUntil(Math.min(deadline, start + drainDelay.toNanos()));
            state = DrainState.REFUSING;
            while (inFlight(context) > 0 && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        long left = inFlight(context);
        long tookMillis = (System.nanoTime() - start) / 1_000_000;
        if (left == 0) {
            LOG.info("Drained in {} ms: nothing in flight", tookMillis);
        } else {
            LOG.warn("Drain timeout after {} ms: {} requests still in flight are cut", tookMillis, left);
        }
    }

    /** Exchanges in Camel's routes plus responses still being relayed; the two overlap, 0 only when both are. */
    private long inFlight(CamelContext context) {
        return context.getInflightRepository().size() + inFlight.total();
    }

    private static void sleepUntil(long nanoTime) throws InterruptedException {
        long wait = nanoTime - System.nanoTime();
        if (wait > 0) {
            Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
        }
    }
}
