package io.inferencegateway.lab.bench.load;

import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.inferencegateway.lab.bench.workload.ConversationPlan;
import io.inferencegateway.lab.bench.workload.PlannedRequest;
import io.inferencegateway.lab.bench.workload.RequestPlan;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.HttpClientCodec;

/**
 * Open-loop load generator for streamed chat completions. One pacing thread sends each planned
 * request at its intended time, whether or not earlier ones have answered; one Netty event loop
 * carries every connection and stream, so thousands of concurrent streams cost no threads.
 * Connections are HTTP/1.1 keep-alive and reused. Latencies count from the intended send time.
 */
public final class LoadGenerator implements AutoCloseable {

    /** Head start between building the run and its first intended send. */
    public static final long START_DELAY_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private final Ticker ticker;
    private final NioEventLoopGroup group = new NioEventLoopGroup(1);
    private final EventLoop loop = group.next();

    public LoadGenerator() {
        this(Ticker.SYSTEM);
    }

    public LoadGenerator(Ticker ticker) {
        this.ticker = ticker;
    }

    /**
     * Runs the plan against the targets (request i goes to target i mod n; normally there is one
     * target, the gateway) and returns when every request has a result: ended, failed, timed out,
     * or cancelled at the drain timeout.
     */
    public RunRecording run(RequestPlan plan, List<InetSocketAddress> targets, LoadOptions options,
                            LiveCounters counters) throws InterruptedException {
        return run(plan, targets, t -> true, options, counters);
    }

    /**
     * As {@link #run(RequestPlan, List, LoadOptions, LiveCounters)}, but spreads requests round-robin over the
     * targets that {@code live} accepts at send time, like a Kubernetes Service over its ready endpoints: a
     * target taken out mid-run gets no new requests (those in flight to it end as they end).
     */
    public RunRecording run(RequestPlan plan, List<InetSocketAddress> targets, IntPredicate live, LoadOptions options,
                            LiveCounters counters) throws InterruptedException {
        return run(plan, targets, live, options, counters, null);
    }

    /** As above, telling {@code observer} (when not null) who served each response. */
    public RunRecording run(RequestPlan plan, List<InetSocketAddress> targets, IntPredicate live, LoadOptions options,
                            LiveCounters counters, ResponseObserver observer) throws InterruptedException {
        if (targets.isEmpty()) {
            throw new IllegalArgumentException("no target to send to");
        }
        for (InetSocketAddress target : targets) {
            if (target.isUnresolved() || !target.getAddress().isLoopbackAddress()) {
                throw new IllegalArgumentException("the bench only talks to loopback addresses, not " + target);
            }
        }
        counters.start(plan.size());
        RunState run = new RunState(ticker, options, loop, counters, plan.size());
        if (observer != null) {
            run.onFinished = (exchange, result) -> observer.onResponse(result.index(), exchange.responseId(),
                    exchange.responseModel());
        }
        Map<InetSocketAddress, ConnectionPool> pools = pools(targets, options);
        List<ConnectionPool> poolByTarget = targets.stream().map(pools::get).toList();

        int[] targetOf = new int[plan.size()];
        int next = 0;
        long start = ticker.nanoTime() + START_DELAY_NANOS;
        for (PlannedRequest request : plan.requests()) {
            byte[] body = RequestEncoder.encode(request.spec()); // before the wait, off the timed path
            long intended = start + options.toWall(request.offsetNanos());
            sleepUntil(intended);
            int t = next;
            for (int k = 0; k < targets.size() && !live.test(t); k++) {
                t = (t + 1) % targets.size();
            }
            next = (t + 1) % targets.size();
            targetOf[request.index()] = t;
            ClientExchange exchange = new ClientExchange(run, request, intended, body, targets.get(t), poolByTarget.get(t));
            loop.execute(exchange::dispatch);
        }

        if (!run.remaining.await(options.drainTimeout().toNanos(), TimeUnit.NANOSECONDS)) {
            loop.submit(() -> List.copyOf(run.live).forEach(ClientExchange::cancel)).sync();
            run.remaining.await();
        }
        long end = ticker.nanoTime();
        int opened = loop.submit(() -> {
            int sum = 0;
            for (ConnectionPool pool : pools.values()) {
                pool.closeIdle();
                sum += pool.opened();
            }
            return sum;
        }).syncUninterruptibly().getNow();
        return new RunRecording(Arrays.asList(run.results), options.timeScale(), end - start, counters.maxInFlight(),
                opened, targetOf);
    }

    /**
     * Plays multi-turn conversations against the targets (see {@link ConversationDriver}): each later turn is sent
     * its think time after the previous one ended, to the next target {@code live} accepts.
     */
    public ConversationRecording run(ConversationPlan plan, List<InetSocketAddress> targets, IntPredicate live,
                                     LoadOptions options, LiveCounters counters) throws InterruptedException {
        if (targets.isEmpty()) {
            throw new IllegalArgumentException("no target to send to");
        }
        Map<InetSocketAddress, ConnectionPool> pools = pools(targets, options);
        ConversationRecording recording = new ConversationDriver(loop, ticker, plan, targets,
                targets.stream().map(pools::get).toList(), live, options, counters).run();
        loop.submit(() -> pools.values().forEach(ConnectionPool::closeIdle)).syncUninterruptibly();
        return recording;
    }

    private Map<InetSocketAddress, ConnectionPool> pools(List<InetSocketAddress> targets, LoadOptions options) {
        Map<InetSocketAddress, ConnectionPool> pools = new LinkedHashMap<>();
        for (InetSocketAddress target : targets) {
            pools.computeIfAbsent(target, t -> {
                Bootstrap bootstrap = new Bootstrap().group(loop).channel(NioSocketChannel.class)
                        .option(ChannelOption.TCP_NODELAY, true)
                        .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 10_000);
                ConnectionPool pool = new ConnectionPool(bootstrap, t, options.maxConnections());
                bootstrap.handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new HttpClientCodec(), new StreamHandler(ticker, pool));
                    }
                });
                return pool;
            });
        }
        return pools;
    }

    /** Parks until the clock reaches {@code deadline}; parking is accurate to tens of microseconds. */
    private void sleepUntil(long deadline) throws InterruptedException {
        long left;
        while ((left = deadline - ticker.nanoTime()) > 0) {
            LockSupport.parkNanos(left);
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
        }
    }

    @Override
    public void close() {
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
