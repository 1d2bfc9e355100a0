package io.inferencegateway.domain;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Several listeners as one, told in the order they were added. */
public final class RequestListeners implements RequestListener {

    private final List<RequestListener> listeners = new CopyOnWriteArrayList<>();

    public RequestListeners() {
    }

    public RequestListeners(List<? extends RequestListener> all) {
        listeners.addAll(all);
    }

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
    public void responseHeaders(RequestRecord record) {
        for (RequestListener l : listeners) {
            l.responseHeaders(record);
        }
    }

    @Override
    public void firstToken(RequestRecord record) {
        for (RequestListener l : listeners) {
            l.firstToken(record);
        }
    }

    @Override
    public void chunk(RequestRecord record, int bytes) {
        for (RequestListener l : listeners) {
            l.chunk(record, bytes);
        }
    }

    @Override
    public void ended(RequestRecord record) {
        for (RequestListener l : listeners) {
            l.ended(record);
        }
    }
}
