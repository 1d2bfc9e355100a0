package io.inferencegateway.camel;

import io.inferencegateway.observability.FleetView;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/** {@code GET /ui/fleet}: the live fleet page's data, as JSON (observability/FleetView, docs/observability.md). */
public class FleetState implements Processor {

    private final FleetView fleetView;

    public FleetState(FleetView fleetView) {
        this.fleetView = fleetView;
    }

    @Override
    public void process(Exchange exchange) {
        exchange.getMessage().setBody(fleetView.json());
        exchange.getMessage().setHeader(Exchange.CONTENT_TYPE, "application/json");
        exchange.getMessage().setHeader("Cache-Control", "no-store");
    }
}
