package io.inferencegateway.camel;

import io.inferencegateway.domain.GatewayError;
import io.inferencegateway.domain.RequestRecord;
import io.inferencegateway.pool.Placement;
import io.inferencegateway.proxy.UpstreamResponse;
import io.inferencegateway.runtime.RequestListeners;
import io.netty.buffer.ByteBuf;
import io.netty.util.ReferenceCountUtil;
import org.apache.camel.Exchange;
import org.apache.camel.support.SynchronizationAdapter;

/**
 * What a request holds until its exchange ends, released by one on-completion: the client's body buffer
 * ({@link StreamingHttpBinding}), its {@link RequestRecord} ({@link ParseInferenceRequest}) and the {@link Placement}
 * that counts it on a pod ({@link EndpointPicker#bind}). One instead of one per holder, since Camel copies and sorts
 * an exchange's on-completions at the end of every route it passes and once more at its end.
 *
 * <p>A relayed response ({@link UpstreamResponse}) ends the record and releases the placement itself when its body
 * ends (UpstreamProducer); any other ending — a failure before or during the upstream call, even one rendered as an
 * error response — ends them here: rendered failures are handled, so onFailure alone would miss them.
 */
final class RequestEnding extends SynchronizationAdapter {

    static final String PROPERTY = "gatewayRequestEnding";

    private ByteBuf body;
    private RequestRecord record;
    private RequestListeners listeners;
    private Placement placement;

    /** The exchange's, registered with it on first use. */
    static RequestEnding of(Exchange exchange) {
        RequestEnding ending = exchange.getProperty(PROPERTY, RequestEnding.class);
        if (ending == null) {
            ending = new RequestEnding();
            exchange.setProperty(PROPERTY, ending);
            exchange.getExchangeExtension().addOnCompletion(ending);
        }
        return ending;
    }

    /** The client's request body, released when the exchange ends. */
    RequestEnding body(ByteBuf body) {
        this.body = body;
        return this;
    }

    /** The request's record, ended as refused (or client gone) unless a relayed response ends it. */
    void record(RequestRecord record, RequestListeners listeners) {
        this.record = record;
        this.listeners = listeners;
    }

    /** The exchange's one placement, finished unless a relayed response finishes it. */
    void placement(Placement placement) {
        this.placement = placement;
    }

    @Override
    public void onDone(Exchange done) {
        try {
            if (!(done.getMessage().getBody() instanceof UpstreamResponse)) {
                // in the order the three on-completions this replaces ran (last added first)
                try {
                    if (placement != null) {
                        placement.finish();
                    }
                } finally {
                    if (record != null) {
                        listeners.end(record, record.error() == GatewayError.Reason.CLIENT_CLOSED
                                ? RequestRecord.Ending.CLIENT_GONE : RequestRecord.Ending.REFUSED);
                    }
                }
            }
        } finally {
            if (body != null) {
                ReferenceCountUtil.safeRelease(body);
            }
        }
    }
}
