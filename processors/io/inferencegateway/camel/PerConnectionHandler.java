package io.inferencegateway.camel;

import java.util.function.Supplier;

import io.inferencegateway.edge.ListenerTls;
import io.netty.channel.ChannelHandler;
import org.apache.camel.component.netty.DefaultChannelHandlerFactory;

/**
 * An entry of a netty-http consumer's {@code encoders} or {@code decoders} that gives every connection a handler of
 * its own, from one of the edge's sources (edge/ClientConnections, edge/RequestSizeGuard): netty-http shares a plain
 * handler between connections and asks a handler factory for a new one per connection.
 */
public final class PerConnectionHandler extends DefaultChannelHandlerFactory {

    private final Supplier<ChannelHandler> source;

    public PerConnectionHandler(Supplier<ChannelHandler> source) {
        this.source = source;
    }

    /** The entry that gives each connection the listener's TLS handler, when {@code gateway.tls.*} is set. */
    public static PerConnectionHandler listenerTls(ListenerTls tls) {
        return new PerConnectionHandler(tls::connectionEntry);
    }

    @Override
    public ChannelHandler newChannelHandler() {
        return source.get();
    }
}
