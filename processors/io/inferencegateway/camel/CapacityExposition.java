package io.inferencegateway.camel;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

import io.inferencegateway.metrics.CapacitySeries;
import io.inferencegateway.observability.CapacitySummary;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * {@code GET /capacity}: the gateway's capacity summary for a global tier (observability/CapacitySummary,
 * docs/global.md); {@code ?model=<base model>} answers that model's rows only. The credential it needs is checked
 * before, by the dispatch table's {@code auth=cluster} (Authenticate).
 */
public class CapacityExposition implements Processor {

    private final CapacitySummary summary;

    public CapacityExposition(CapacitySummary summary) {
        this.summary = summary;
    }

    @Override
    public void process(Exchange exchange) {
        String model = model(GatewayExchange.request(exchange).uri());
        exchange.getMessage().setBody(summary.text(model));
        exchange.getMessage().setHeader(Exchange.CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8");
        exchange.getMessage().setHeader("Cache-Control", "no-store");
    }

    /** The query's {@code model} parameter, decoded; null when there is none. */
    static String model(String uri) {
        int q = uri == null ? -1 : uri.indexOf('?');
        if (q < 0) {
            return null;
        }
        String prefix = CapacitySeries.MODEL_PARAMETER + "=";
        for (String pair : uri.substring(q + 1).split("&")) {
            if (pair.startsWith(prefix)) {
                String value = pair.substring(prefix.length());
                try {
                    return URLDecoder.decode(value, StandardCharsets.UTF_8);
                } catch (IllegalArgumentException malformed) {
                    return value; // names no model: the summary answers its info series only
                }
            }
        }
        return null;
    }
}
