package io.inferencegateway.edge;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntSupplier;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * The meters of the ingress's client connections (docs/observability.md, "Client connections"): how many are open,
 * how many were refused at the cap, and how many timed out, by the phase the client kept the gateway waiting in. A
 * connection counts with one increment of a {@link LongAdder}; Prometheus reads the sums when it scrapes.
 */
public final class ConnectionMeters implements MeterBinder {

    private final LongAdder refused = new LongAdder();
    private final LongAdder[] timedOut = new LongAdder[ClientConnections.Wait.values().length];
    private final List<IntSupplier> open = new CopyOnWriteArrayList<>();

    public ConnectionMeters() {
        for (int i = 0; i < timedOut.length; i++) {
            timedOut[i] = new LongAdder();
        }
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Gauge.builder("inference_gateway_connections_open", this, ConnectionMeters::open)
                .description("Client connections the ingress holds open").register(registry);
        FunctionCounter.builder("inference_gateway_connections_refused", refused, LongAdder::sum)
                .description("Client connections closed as soon as they were accepted, because "
                        + "gateway.http.maxConnections were open").register(registry);
        for (ClientConnections.Wait wait : ClientConnections.Wait.values()) {
            FunctionCounter.builder("inference_gateway_connections_timed_out", timedOut[wait.ordinal()], LongAdder::sum)
                    .description("Client connections closed because the client kept the gateway waiting too long")
                    .tag("phase", wait.name().toLowerCase(Locale.ROOT)).register(registry);
        }
    }

    /**
     * Counts the connections {@code openNow} holds open in the open-connections gauge: the count the ingress keeps
     * for its cap (the YAML DSL may build the ingress's bean more than once; the unused ones hold none).
     */
    void counts(IntSupplier openNow) {
        open.add(openNow);
    }

    private double open() {
        int sum = 0;
        for (IntSupplier s : open) {
            sum += s.getAsInt();
        }
        return sum;
    }

    void refused() {
        refused.increment();
    }

    void timedOut(ClientConnections.Wait wait) {
        timedOut[wait.ordinal()].increment();
    }
}
