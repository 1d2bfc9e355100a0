package io.inferencegateway.camel;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * {@code GET /ui}: the live fleet page, one self-contained HTML file from the jar (src/main/resources/ui/fleet.html)
 * that polls {@code GET /ui/fleet}. Read once, at start.
 */
public class FleetPage implements Processor {

    static final String RESOURCE = "/ui/fleet.html";

    private final byte[] html;

    public FleetPage() {
        try (InputStream in = FleetPage.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is not on the classpath");
            }
            html = in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void process(Exchange exchange) {
        exchange.getMessage().setBody(html);
        exchange.getMessage().setHeader(Exchange.CONTENT_TYPE, "text/html; charset=utf-8");
        exchange.getMessage().setHeader("Cache-Control", "no-cache");
    }
}
