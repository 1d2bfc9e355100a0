package io.inferencegateway.kvevents;

/** A KV-event payload that is not an event batch in any encoding the decoder knows. */
public final class KvEventFormatException extends RuntimeException {

    KvEventFormatException(String message) {
        super(message);
    }
}
