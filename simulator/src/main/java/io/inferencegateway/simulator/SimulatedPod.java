package io.inferencegateway.simulator;

import java.net.InetSocketAddress;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;

/**
 * One simulated model-server pod: an engine and its HTTP port, both on one Netty event loop.
 * Also the handle that tests, the demo and the benchmark hold: kill and revive it, make its
 * /metrics fail or lag, change its GPU speed, read its counters. Handle methods are thread-safe.
 */
public final class SimulatedPod {

    /** What /metrics does: answer normally, 500, late, or 200 with text no Prometheus parser accepts. */
    public enum MetricsFault { NONE, FAIL, SLOW, GARBLED }

    /** Most request ids a kill remembers having cut (the bench's faults scenario compares them with its failures). */
    private static final int CUT_IDS_KEPT = 10_000;

    private final int index;
    private final EngineConfig config;
    private final MetricsDialect dialect;
    private final double timeScale;
    private final EventLoopGroup acceptGroup;
    private final EventLoop loop;
    private final Class<? extends io.netty.channel.ServerChannel> serverChannelType;
    private final String host;
    private final long originNanos = System.nanoTime();
    private final long unixNanosAtOrigin = System.currentTimeMillis() * 1_000_000L;

    private final AtomicLong received = new AtomicLong();
    private final AtomicLong metricsScrapes = new AtomicLong();
    private final AtomicLong served = new AtomicLong();
    private final AtomicLong aborted = new AtomicLong();
    private final AtomicLong ids = new AtomicLong();
    /** Chunks handed out by /tokenize, for /detokenize; touched on the pod's event loop only. */

    private volatile int port;
    private volatile boolean killed = true;
    private volatile double speed;
    private volatile MetricsFault metricsFault = MetricsFault.NONE;
    private volatile long metricsDelayMillis;
    private volatile boolean inferenceUnavailable;
    private volatile double errorShare;
    private final java.util.concurrent.atomic.AtomicLong generations = new java.util.concurrent.atomic.AtomicLong();
    private final java.util.Queue<String> cutByKill = new java.util.concurrent.ConcurrentLinkedQueue<>();
    private volatile PodDriver driver;
    private Channel serverChannel;
    private ChannelGroup connections;

    SimulatedPod(int index, EngineConfig config, MetricsDialect dialect, double timeScale, EventLoopGroup acceptGroup,
                 EventLoop loop, Class<? extends io.netty.channel.ServerChannel> serverChannelType, String host,
                 int port) {
        this.index = index;
        this.config = config;
        this.dialect = dialect;
        this.timeScale = timeScale;
        this.acceptGroup = acceptGroup;
        this.loop = loop;
        this.serverChannelType = serverChannelType;
        this.host = host;
        this.port = port;
        this.speed = config.speed();
    }

    // ---- lifecycle ------------------------------------------------------------------------

    /** Starts (or restarts) the pod: a fresh engine, as after a process restart, on its port. */
    public synchronized void revive() {
        if (!killed) {
            return;
        }
        EngineCore engine = new EngineCore(config.withSpeed(speed), dialect, unixNanosAtOrigin, timeScale);
        PodDriver d = new PodDriver(loop, engine, timeScale, originNanos);
        connections = new DefaultChannelGroup(loop);
        ChannelGroup group = connections;
        ServerBootstrap b = new ServerBootstrap()
                .group(acceptGroup, loop)
                .channel(serverChannelType)
                .option(ChannelOption.SO_REUSEADDR, true)
                .option(ChannelOption.SO_BACKLOG, 1024)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        group.add(ch);
                        ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(32 << 20),
                                new PodHttpHandler(SimulatedPod.this));
                    }
                });
        driver = d;
        killed = false;
        serverChannel = b.bind(new InetSocketAddress(host, port)).syncUninterruptibly().channel();
        port = ((InetSocketAddress) serverChannel.localAddress()).getPort();
    }

    /**
     * Kills the pod: its port refuses connections, open connections (and streams) break, its
     * in-flight requests are lost. {@link #revive()} brings it back empty on the same port.
     */
    public synchronized void kill() {
        if (killed) {
            return;
        }
        killed = true;
        serverChannel.close().syncUninterruptibly();
        connections.close().syncUninterruptibly();
        PodDriver d = driver;
        onLoop(() -> {
            d.stop();
            return null;
        });
    }

    public boolean isKilled() {
        return killed;
    }

    // ---- faults and knobs -----------------------------------------------------------------

    /** /metrics answers 500. */
    public void failMetrics() {
        metricsFault = MetricsFault.FAIL;
    }

    /** /metrics answers after {@code delayMillis}. */
    public void slowMetrics(long delayMillis) {
        metricsDelayMillis = delayMillis;
        metricsFault = MetricsFault.SLOW;
    }

    /** /metrics answers 200 with a body that is not Prometheus text. */
    public void garbleMetrics() {
        metricsFault = MetricsFault.GARBLED;
    }

    /** /metrics answers normally again. */
    public void healMetrics() {
        metricsFault = MetricsFault.NONE;
    }

    public MetricsFault metricsFault() {
        return metricsFault;
    }

    /**
     * Generation requests (chat, completions, responses) answer 503 at once while {@code unavailable}, as a
     * server that is overloaded or shutting down does; /health and /metrics keep answering.
     */
    public void inferenceUnavailable(boolean unavailable) {
        inferenceUnavailable = unavailable;
    }

    /**
     * Generation requests answer 500 at once in this share (0..1) of them, spread evenly: with 0.05, the 20th, 40th,
     * ... request since. 0 stops it.
     */
    public void inferenceErrors(double share) {
        if (!(share >= 0 && share <= 1)) {
            throw new IllegalArgumentException("share must be 0..1");
        }
        generations.set(0);
        errorShare = share;
    }

    public double inferenceErrorShare() {
        return errorShare;
    }

    /** Whether this generation request is one of the share {@link #inferenceErrors} fails. */
    boolean failsThisGeneration() {
        double share = errorShare;
        if (share <= 0) {
            return false;
        }
        long n = generations.incrementAndGet();
        return Math.floor(n * share) > Math.floor((n - 1) * share);
    }

    public boolean isInferenceUnavailable() {
        return inferenceUnavailable;
    }

    /**
     * The {@code X-Request-Id} of every generation a kill cut off mid-way (oldest first, the last
     * {@value #CUT_IDS_KEPT}); requests without the header are listed as an empty string.
     */
    public java.util.List<String> requestsCutByKill() {
        return java.util.List.copyOf(cutByKill);
    }

    void recordCutByKill(String requestId) {
        cutByKill.add(requestId == null ? "" : requestId);
        while (cutByKill.size() > CUT_IDS_KEPT) {
            cutByKill.poll();
        }
    }

    long metricsDelayMillis() {
        return metricsDelayMillis;
    }

    /** Sets the GPU speed factor (1 = H100, 0.5 = half as fast) from the next step on. */
    public void speed(double factor) {
        if (!(factor > 0)) {
            throw new IllegalArgumentException("speed must be positive");
        }
        speed = factor;
        if (!killed) {
            PodDriver d = driver;
            onLoop(() -> {
                d.engine().speed(factor);
                return null;
            });
        }
    }

    public double speed() {
        return speed;
    }

    // ---- observation ----------------------------------------------------------------------

    public int index() {
        return index;
    }

    public int port() {
        return port;
    }

    public String host() {
        return host;
    }

    /** http://host:port */
    public String baseUrl() {
        return "http://" + host + ":" + port;
    }

    /** Generation requests accepted (chat, completions and responses), since the fleet started. */
    public long requestsReceived() {
        return received.get();
    }

    /** GET /metrics requests answered or failed, since the fleet started: the load scrapers put on the pod. */
    public long metricsScrapes() {
        return metricsScrapes.get();
    }

    void countMetricsScrape() {
        metricsScrapes.incrementAndGet();
    }

    /** Generation requests that ran to completion, since the fleet started. */
    public long requestsServed() {
        return served.get();
    }

    /** Generation requests aborted because their client disconnected, since the fleet started. */
    public long abortedRequests() {
        return aborted.get();
    }

    /** Running requests now (0 when killed). */
    public int running() {
        return killed ? 0 : onLoop(() -> driver.engine().numRunning());
    }

    /** Waiting requests now (0 when killed). */
    public int waiting() {
        return killed ? 0 : onLoop(() -> driver.engine().numWaiting());
    }

    /** KV-cache usage now, 0..1. */
    public double kvUsage() {
        return killed ? 0 : onLoop(() -> driver.engine().kvUsage());
    }

    /** The /metrics body the pod would serve now (ignores metric faults). */
    public String metricsText() {
        return onLoop(() -> dialect.render(driver.engine(), driver.virtualNow()));
    }

    /**
     * How well the pod kept real time since it (re)started: steps run, steps that started late
     * because the event loop woke up more than 3 ms after the previous step ended, and the model
     * time lost that way. Near-zero loss means the simulator was not the bottleneck.
     */
    public Timeline timeline() {
        long[] t = onLoop(() -> driver.timeline());
        return new Timeline(t[0], t[1], t[2] / 1e6);
    }

    /** See {@link #timeline()}. */
    public record Timeline(long steps, long lateSteps, double lostMillis) {
    }

    /** Runs {@code task} on the pod's engine thread and returns its result (for tests and tools). */
    public <T> T onLoop(Callable<T> task) {
        if (loop.inEventLoop()) {
            try {
                return task.call();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
        try {
            return loop.submit(task).get(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException(e);
        }
    }

    // ---- for the handler (pod loop) -------------------------------------------------------

    EngineCore engine() {
        return driver.engine();
    }

    PodDriver driver() {
        return driver;
    }

    Vocabulary vocabulary() {
        return Vocabulary.SHARED;
    }

    long unixSeconds() {
        return System.currentTimeMillis() / 1000;
    }

    String nextRequestId() {
        long n = ids.incrementAndGet();
        return String.format("%016x%016x", Tokenizer.mix(config.seed() * 31 + index), Tokenizer.mix(n));
    }

    void countReceived() {
        received.incrementAndGet();
    }

    void countServed() {
        served.incrementAndGet();
    }

    void countAborted() {
        aborted.incrementAndGet();
    }
}
