package io.inferencegateway.simulator;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.util.concurrent.DefaultThreadFactory;

/**
 * The fleet's fault-injection API on its own port (its own small thread, so it answers even
 * when pods are busy). Routes:
 * <ul>
 *   <li>{@code GET /pods} — every pod: index, port, alive, speed, metrics fault, counters</li>
 *   <li>{@code POST /pods/{i}/kill}, {@code POST /pods/{i}/revive}</li>
 *   <li>{@code POST /pods/{i}/metrics?fault=fail|slow|garbled|none[&delayMs=N]}</li>
 *   <li>{@code POST /pods/{i}/inference?fault=unavailable|errors|none[&share=S]} — generation requests answer 503, 500 in share S (0..1) of them, or work again</li>
 *   <li>{@code POST /pods/{i}/speed?factor=F}</li>
 * </ul>
 */
final class FleetAdminServer implements AutoCloseable {

    private final NioEventLoopGroup group;
    private final Channel channel;

    private FleetAdminServer(NioEventLoopGroup group, Channel channel) {
        this.group = group;
        this.channel = channel;
    }

    static FleetAdminServer start(SimulatedFleet fleet, String host, int port) {
        NioEventLoopGroup group = new NioEventLoopGroup(1, new DefaultThreadFactory("sim-admin", true));
        try {
            Channel ch = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel c) {
                            c.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(1 << 16),
                                    new Handler(fleet));
                        }
                    }).bind(new InetSocketAddress(host, port)).syncUninterruptibly().channel();
            return new FleetAdminServer(group, ch);
        } catch (RuntimeException e) {
            group.shutdownGracefully();
            throw e;
        }
    }

    int port() {
        return ((InetSocketAddress) channel.localAddress()).getPort();
    }

    @Override
    public void close() {
        channel.close().syncUninterruptibly();
        group.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
    }

    private static final class Handler extends SimpleChannelInboundHandler<FullHttpRequest> {
        private final SimulatedFleet fleet;

        Handler(SimulatedFleet fleet) {
            this.fleet = fleet;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
            QueryStringDecoder q = new QueryStringDecoder(req.uri());
            String[] parts = q.path().replaceAll("^/+|/+$", "").split("/");
            try {
                if (req.method().equals(HttpMethod.GET) && parts.length == 1 && parts[0].equals("pods")) {
                    StringBuilder sb = new StringBuilder("[");
                    for (SimulatedPod p : fleet.pods()) {
                        if (sb.length() > 1) {
                            sb.append(',');
                        }
                        sb.append(describe(p));
                    }
                    send(ctx, req, HttpResponseStatus.OK, sb.append(']').toString());
                    return;
                }
                if (parts.length < 2 || !parts[0].equals("pods")) {
                    send(ctx, req, HttpResponseStatus.NOT_FOUND, "{\"error\":\"not found\"}");
                    return;
                }
                int i = Integer.parseInt(parts[1]);
                if (i < 0 || i >= fleet.size()) {
                    send(ctx, req, HttpResponseStatus.NOT_FOUND, "{\"error\":\"no pod " + i + "\"}");
                    return;
                }
                SimulatedPod pod = fleet.pod(i);
                String action = parts.length > 2 ? parts[2] : "";
                if (req.method().equals(HttpMethod.GET) && action.isEmpty()) {
                    send(ctx, req, HttpResponseStatus.OK, describe(pod));
                    return;
                }
                if (!req.method().equals(HttpMethod.POST)) {
                    send(ctx, req, HttpResponseStatus.METHOD_NOT_ALLOWED, "{\"error\":\"use POST\"}");
                    return;
                }
                switch (action) {
                    case "kill" -> pod.kill();
                    case "revive" -> pod.revive();
                    case "speed" -> pod.speed(Double.parseDouble(param(q.parameters(), "factor")));
                    case "metrics" -> {
                        String fault = param(q.parameters(), "fault").toLowerCase(Locale.ROOT);
                        switch (fault) {
                            case "fail" -> pod.failMetrics();
                            case "slow" -> pod.slowMetrics(Long.parseLong(param(q.parameters(), "delayMs")));
                            case "garbled" -> pod.garbleMetrics();
                            case "none" -> pod.healMetrics();
                            default -> throw new IllegalArgumentException("fault must be fail, slow, garbled or none");
                        }
                    }
                    case "inference" -> {
                        String fault = param(q.parameters(), "fault").toLowerCase(Locale.ROOT);
                        switch (fault) {
                            case "unavailable" -> pod.inferenceUnavailable(true);
                            case "errors" -> pod.inferenceErrors(Double.parseDouble(param(q.parameters(), "share")));
                            case "none" -> {
                                pod.inferenceUnavailable(false);
                                pod.inferenceErrors(0);
                            }
                            default -> throw new IllegalArgumentException("fault must be unavailable, errors or none");
                        }
                    }
                    default -> {
                        send(ctx, req, HttpResponseStatus.NOT_FOUND, "{\"error\":\"unknown action\"}");
                        return;
                    }
                }
                send(ctx, req, HttpResponseStatus.OK, describe(pod));
            } catch (RuntimeException e) {
                send(ctx, req, HttpResponseStatus.BAD_REQUEST, "{\"error\":" + Json.quote(String.valueOf(e.getMessage()))
                        + "}");
            }
        }

        private static String param(Map<String, List<String>> params, String name) {
            List<String> v = params.get(name);
            if (v == null || v.isEmpty()) {
                throw new IllegalArgumentException("missing query parameter " + name);
            }
            return v.get(0);
        }

        private static String describe(SimulatedPod p) {
            SimulatedPod.Timeline t = p.timeline();
            return "{\"index\":" + p.index() + ",\"port\":" + p.port() + ",\"alive\":" + !p.isKilled() + ",\"speed\":"
                    + p.speed() + ",\"metricsFault\":\"" + p.metricsFault().name().toLowerCase(Locale.ROOT)
                    + "\",\"inferenceUnavailable\":" + p.isInferenceUnavailable() + ",\"inferenceErrorShare\":" + p.inferenceErrorShare()
                    + ",\"requestsReceived\":" + p.requestsReceived() + ",\"requestsServed\":" + p.requestsServed()
                    + ",\"abortedRequests\":" + p.abortedRequests() + ",\"steps\":" + t.steps() + ",\"lateSteps\":"
                    + t.lateSteps() + ",\"lostMillis\":" + Math.round(t.lostMillis()) + "}";
        }

        private static void send(ChannelHandlerContext ctx, FullHttpRequest req, HttpResponseStatus status,
                                 String body) {
            FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                    Unpooled.copiedBuffer(body, StandardCharsets.UTF_8));
            res.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/json");
            HttpUtil.setContentLength(res, res.content().readableBytes());
            HttpUtil.setKeepAlive(res, HttpUtil.isKeepAlive(req));
            ctx.writeAndFlush(res);
        }
    }
}
