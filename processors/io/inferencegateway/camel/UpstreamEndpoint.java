package io.inferencegateway.camel;

import io.inferencegateway.domain.Endpoint;
import org.apache.camel.Consumer;
import org.apache.camel.Processor;
import org.apache.camel.Producer;
import org.apache.camel.support.DefaultEndpoint;

/**
 * One model server as a Camel endpoint, {@code upstream:host:port}: what the inference route's dynamic recipient
 * answers. Its producer sends the exchange's placed request there (the placement brings the pool's route timeout and
 * failover).
 */
public class UpstreamEndpoint extends DefaultEndpoint {

    private final Endpoint target;

    UpstreamEndpoint(String uri, UpstreamComponent component, Endpoint target) {
        super(uri, component);
        this.target = target;
    }

    public Endpoint target() {
        return target;
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
