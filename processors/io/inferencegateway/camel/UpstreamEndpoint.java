package io.inferencegateway.camel;

import java.time.Duration;

import io.inferencegateway.config.Durations;
import io.inferencegateway.domain.Endpoint;
import org.apache.camel.Consumer;
import org.apache.camel.Processor;
import org.apache.camel.Producer;
import org.apache.camel.support.DefaultEndpoint;

/** One model server as a Camel endpoint. */
public class UpstreamEndpoint extends DefaultEndpoint {

    private final Endpoint target;
    private Duration timeout = Duration.ofSeconds(300);

    UpstreamEndpoint(String uri, UpstreamComponent component, Endpoint target) {
        super(uri, component);
        this.target = target;
    }

    public Endpoint target() {
        return target;
    }

    /** Route timeout (e.g. {@code 300s}) when the exchange carries no placement, which brings its pool's own. */
    public void setTimeout(String timeout) {
        this.timeout = Durations.parse(timeout);
    }

    Duration timeout() {
        return timeout;
    }

    @Override
    public UpstreamComponent getComponent() {
        return (UpstreamComponent) super.getComponent();
    }

    @Override
    public Producer createProducer() {
        return new UpstreamProducer(this);
    }

    @Override
    public Consumer createConsumer(Processor processor) {
        throw new UnsupportedOperationException("upstream: is a producer only");
    }
}
