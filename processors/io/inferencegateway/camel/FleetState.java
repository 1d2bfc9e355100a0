package io.inferencegateway.camel;

import io.inferencegateway.runtime.Gateway;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/** {@code GET /ui/fleet}: the live fleet page's data, as JSON (runtime/FleetView, docs/observability.md). */
public class FleetState implements Processor {

    private final Gateway gateway;

    public FleetState(Gateway gateway) {
        this.gateway = gateway;
    }

    @Override
    public void process(Exchange exchange) {
        exchange.getMessage().setBody(gateway.fleetView().json());
        exchange.getMessage().setHeader(Exchange.CONTENT_TYPE, "application/json");
        exchange.getMessage().setHeader("Cache-Control", "no-store");
    }
}
