package io.inferencegateway.runtime;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.inferencegateway.domain.RequestListener;
import io.inferencegateway.domain.RequestRecord;

/**
 * Every {@link RequestListener} of a gateway as one. A listener that throws is logged by the caller's error handling
 * only once per request; the others still hear of it.
 */
public final class RequestListeners implements RequestListener {

    private final List<RequestListener> listeners = new CopyOnWriteArrayList<>();

    public void add(RequestListener listener) {
        listeners.add(listener);
    }

    /** True when someone listens, so that the request path can skip building a record when no one does. */
    public boolean active() {
        return !listeners.isEmpty();
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
