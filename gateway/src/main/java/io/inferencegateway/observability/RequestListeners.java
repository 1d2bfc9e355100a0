package io.inferencegateway.observability;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.inferencegateway.domain.RequestListener;
import io.inferencegateway.domain.RequestRecord;

/**
 * Every {@link RequestListener} of a gateway as one: the meters, the access log, the fleet page, the rate limiter and
 * the tracer, as spec.observability and spec.rateLimits make them. The request path tells it (request/GatewayRequest).
 */
public final class RequestListeners implements RequestListener {

    private final List<RequestListener> listeners = new CopyOnWriteArrayList<>();

    public void add(RequestListener listener) {
        listeners.add(listener);
    }

    @Override
    public void started(RequestRecord record) {
        for (RequestListener l : listeners) {
            l.started(record);
        }
    }

    @Override
    public void picked(RequestRecord record) {
        for (RequestListener l : listeners) {
            l.picked(record);
        }
    }

    @Override
    public void ended(RequestRecord record) {
        for (RequestListener l : listeners) {
            l.ended(record);
        }
    }
}
