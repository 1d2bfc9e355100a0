package io.inferencegateway.camel;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import io.inferencegateway.domain.GatewayError;
import io.inferencegateway.openai.OpenAiErrors;
import io.inferencegateway.proxy.UpstreamResponse;
import io.inferencegateway.request.GatewayRequest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.stream.ChunkedWriteHandler;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.component.netty.NettyConstants;
import org.apache.camel.component.netty.http.DefaultNettyHttpBinding;
import org.apache.camel.component.netty.http.NettyHttpConfiguration;
import org.apache.camel.component.netty.http.NettyHttpConstants;
import org.apache.camel.component.netty.http.NettyHttpMessage;

/**
 * The gateway's binding between netty-http and Camel messages.
 *
 * <p>Requests: each becomes a {@link GatewayRequest} (the client's headers kept whole for forwarding), the one
 * per-request object the steps read and fill in; the body stays the Netty buffer it arrived in (no copy, no stream
 * cache), released when the exchange completes; only the few headers Camel's own steps read become Camel headers.
 *
 * <p>Responses: an {@link UpstreamResponse} is relayed as it arrives through netty-http's
 * {@code outbound-streamer} handler; anything else is a small complete body written by the gateway
 * itself (JSON from a processor). Either carries the headers the request's steps added (rate limits, Retry-After,
 * Allow). Stack traces never reach the client.
 */
public class StreamingHttpBinding extends DefaultNettyHttpBinding {

    /** The pipeline name netty-http gives its chunked writer (see HttpServerInitializerFactory). */
    static final String OUTBOUND_STREAMER = "outbound-streamer";

    @Override
    public Message toCamelMessage(FullHttpRequest request, Exchange exchange, NettyHttpConfiguration configuration) {
        NettyHttpMessage message = new NettyHttpMessage(exchange.getContext(), request, null);
        message.setExchange(exchange);
        String uri = request.uri();
        int q = uri.indexOf('?');
        String path = q < 0 ? uri : uri.substring(0, q);
        String method = request.method().name();
        Map<String, Object> headers = message.getHeaders();
        headers.put(Exchange.HTTP_METHOD, method);
        headers.put(Exchange.HTTP_URI, uri);
        headers.put(Exchange.HTTP_PATH, path);
        if (q >= 0) {
            headers.put(Exchange.HTTP_QUERY, uri.substring(q + 1));
        }
        String contentType = request.headers().get(HttpHeaderNames.CONTENT_TYPE);
        if (contentType != null) {
            headers.put(Exchange.CONTENT_TYPE, contentType);
        }
        ByteBuf body = request.content().retain();
        message.setBody(body);
        exchange.getExchangeExtension().setStreamCacheDisabled(true);
        GatewayExchange.begin(exchange, new GatewayRequest(method, uri, path, request.headers(), body));
        return message;
    }

    @Override
    public HttpResponse toNettyResponse(Message message, NettyHttpConfiguration configuration) {
        Exchange exchange = message.getExchange();
        boolean close = !configuration.isKeepAlive() || HttpHeaderValues.CLOSE.contentEqualsIgnoreCase(
                exchange.getProperty(NettyHttpConstants.CONNECTION, "", String.class));
        GatewayRequest request = GatewayExchange.request(exchange);
        HttpHeaders extra = request == null ? null : request.responseHeaders();
        Object body = message.getBody();
        if (body instanceof UpstreamResponse upstream) {
            ChannelHandlerContext ctx = GatewayExchange.client(exchange);
            StreamedHttpResponse response = new StreamedHttpResponse(upstream.head().status(), upstream.body());
            upstream.clientHeaders(response.headers(), close);
            if (extra != null) {
                response.headers().setAll(extra);
            }
            upstream.body().attach(ctx.channel(), (ChunkedWriteHandler) ctx.pipeline().get(OUTBOUND_STREAMER), response,
                    close);
            return response;
        }
        if (exchange.getException() != null) {
            // the routes render every error; this is the last line of defence
            byte[] json = OpenAiErrors.body(GatewayError.internal());
            return complete(message, HttpResponseStatus.INTERNAL_SERVER_ERROR, json, "application/json", null, close);
        }
        int status = message.getHeader(Exchange.HTTP_RESPONSE_CODE, 200, Integer.class);
        String contentType = message.getHeader(Exchange.CONTENT_TYPE, "application/json", String.class);
        return complete(message, HttpResponseStatus.valueOf(status), bytes(body), contentType, extra, close);
    }

    /** A response the gateway wrote itself, with the headers the request's steps added ({@code extra}, or null). */
    private static HttpResponse complete(Message message, HttpResponseStatus status, byte[] content,
            String contentType, HttpHeaders extra, boolean close) {
        DefaultFullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                Unpooled.wrappedBuffer(content), false);
        response.headers()
                .set(HttpHeaderNames.CONTENT_TYPE, contentType)
                .setInt(HttpHeaderNames.CONTENT_LENGTH, content.length);
        if (extra != null) {
            response.headers().setAll(extra);
        }
        if (close) {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            message.setHeader(NettyConstants.NETTY_CLOSE_CHANNEL_WHEN_COMPLETE, true);
        }
        return response;
    }

    private static byte[] bytes(Object body) {
        if (body == null) {
            return new byte[0];
        }
        if (body instanceof byte[] b) {
            return b;
        }
        if (body instanceof ByteBuf buf) {
            byte[] b = new byte[buf.readableBytes()];
            buf.getBytes(buf.readerIndex(), b);
            return b;
        }
        return body.toString().getBytes(StandardCharsets.UTF_8);
    }
}
