package io.inferencegateway.runtime;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.inferencegateway.domain.NanoClock;
import io.inferencegateway.domain.RequestListener;
import io.inferencegateway.domain.RequestRecord;

/**
 * Every {@link RequestListener} of a gateway as one.
 */
public final class RequestListeners implements RequestListener {

    private final List<RequestListener> listeners = new CopyOnWriteArrayList<>();
    private final NanoClock clock;

    public RequestListeners(NanoClock clock) {
        this.clock = clock;
    }

    /** The clock the records' times are read from. */
    public long now() {
        return clock.nanoTime();
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

    /** Ends {@code record} now and tells everyone, unless it had ended already. */
    public void end(RequestRecord record, RequestRecord.Ending how) {
        if (record.end(how, clock.nanoTime())) {
            ended(record);
        }
    }

    @Override
    public void ended(RequestRecord record) {
        for (RequestListener l : listeners) {
            l.ended(record);
        }
    }
}
