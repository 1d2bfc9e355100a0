package io.inferencegateway.lab.bench.load;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.IntPredicate;

import io.inferencegateway.lab.bench.workload.ConversationPlan;
import io.inferencegateway.lab.bench.workload.ConversationPlan.Conversation;
import io.inferencegateway.lab.bench.workload.ConversationPlan.Turn;
import io.inferencegateway.lab.bench.workload.PlannedRequest;
import io.netty.channel.EventLoop;

/**
 * Plays a {@link ConversationPlan}: each conversation's first turn at its planned start, each later turn its think
 * time after the previous turn's answer ended (whatever its outcome: a user whose turn failed asks again). Everything
 * runs on the generator's event loop, so conversations cost no threads. Each turn goes to the next live target
 * round-robin, so with several gateway replicas consecutive turns of one conversation usually reach different ones.
 * A turn's latencies count from the moment it was due.
 */
final class ConversationDriver {

    private final EventLoop loop;
    private final Ticker ticker;
    private final ConversationPlan plan;
    private final List<InetSocketAddress> targets;
    private final List<ConnectionPool> pools;
    private final IntPredicate live;
    private final LoadOptions options;
    private final RunState run;
    private final Turn[] turns;
    private final Turn[] nextOf;
    private final String[] servedBy;
    private final int[] cachedTokens;
    private final int[] targetOf;
    private long start;
    private int nextTarget;
    private boolean stopping;

    ConversationDriver(EventLoop loop, Ticker ticker, ConversationPlan plan, List<InetSocketAddress> targets,
                       List<ConnectionPool> pools, IntPredicate live, LoadOptions options, LiveCounters counters) {
        this.loop = loop;
        this.ticker = ticker;
        this.plan = plan;
        this.targets = targets;
        this.pools = pools;
        this.live = live;
        this.options = options;
        int n = plan.turnCount();
        this.run = new RunState(ticker, options, loop, counters, n);
        this.turns = new Turn[n];
        this.nextOf = new Turn[n];
        for (Conversation c : plan.conversations()) {
            List<Turn> ts = c.turns();
            for (int i = 0; i < ts.size(); i++) {
                turns[ts.get(i).index()] = ts.get(i);
                nextOf[ts.get(i).index()] = i + 1 < ts.size() ? ts.get(i + 1) : null;
            }
        }
        this.servedBy = new String[n];
        this.cachedTokens = new int[n];
        this.targetOf = new int[n];
        run.onFinished = this::onFinished;
    }

    /**
     * Runs until every turn has a result. When no turn ends for the drain timeout, the turns in flight are cancelled
     * and those never sent count as cancelled too.
     */
    ConversationRecording run() throws InterruptedException {
        counters().start(turns.length);
        start = ticker.nanoTime() + LoadGenerator.START_DELAY_NANOS;
        loop.submit(() -> {
            for (Conversation c : plan.conversations()) {
                if (!c.turns().isEmpty()) {
                    long due = start + options.toWall(c.startNanos());
                    schedule(c.turns().get(0), due);
                }
            }
        }).syncUninterruptibly();
        long lastLeft = run.remaining.getCount();
        long lastProgress = ticker.nanoTime();
        while (!run.remaining.await(200, TimeUnit.MILLISECONDS)) {
            long left = run.remaining.getCount();
            long now = ticker.nanoTime();
            if (left != lastLeft) {
                lastLeft = left;
                lastProgress = now;
            } else if (now - lastProgress > options.drainTimeout().toNanos()) {
                loop.submit(this::stop).syncUninterruptibly();
            }
        }
        long end = ticker.nanoTime();
        List<RequestResult> results = new ArrayList<>(turns.length);
        for (RequestResult r : run.results) {
            results.add(r);
        }
        return new ConversationRecording(plan, results, servedBy.clone(), cachedTokens.clone(), targetOf.clone(),
                options.timeScale(), end - start, counters().maxInFlight());
    }

    private LiveCounters counters() {
        return run.counters;
    }

    private void schedule(Turn turn, long dueWall) {
        loop.schedule(() -> send(turn, dueWall), Math.max(0, dueWall - ticker.nanoTime()), TimeUnit.NANOSECONDS);
    }

    private void send(Turn turn, long dueWall) {
        if (stopping) {
            return;
        }
        int t = nextTarget;
        for (int k = 0; k < targets.size() && !live.test(t); k++) {
            t = (t + 1) % targets.size();
        }
        nextTarget = (t + 1) % targets.size();
        targetOf[turn.index()] = t;
        PlannedRequest request = new PlannedRequest(turn.index(), options.toSimulated(dueWall - start), turn.spec());
        new ClientExchange(run, request, dueWall, RequestEncoder.encode(turn.spec()), targets.get(t), pools.get(t))
                .dispatch();
    }

    private void onFinished(ClientExchange exchange, RequestResult result) {
        servedBy[result.index()] = exchange == null ? null : podOf(exchange.responseId());
        cachedTokens[result.index()] = exchange == null ? -1 : exchange.cachedTokens();
        Turn next = nextOf[result.index()];
        if (next != null && !stopping) {
            schedule(next, ticker.nanoTime() + options.toWall(next.thinkNanos()));
        }
    }

    /** Cancels the turns in flight and records the ones never sent, so that the run can end. */
    private void stop() {
        stopping = true;
        List.copyOf(run.live).forEach(ClientExchange::cancel);
        for (int i = 0; i < turns.length; i++) {
            if (run.results[i] == null) {
                Turn t = turns[i];
                run.finished(null, new RequestResult(i, t.spec().model(), t.spec().kind(), t.spec().key(),
                        t.spec().promptTokens(), t.spec().maxTokens(), -1, -1, Outcome.CANCELLED, 0,
                        "never sent: no turn ended within the drain timeout", -1, new long[0], -1, 0, 0, false));
            }
        }
    }

    /**
     * The pod that served a completion, from its id: the simulator's ids are {@code chatcmpl-} followed by 16 hex
     * digits that name the pod and 16 that count its requests. Null when the id is not of that form.
     */
    static String podOf(String completionId) {
        if (completionId == null) {
            return null;
        }
        int dash = completionId.lastIndexOf('-');
        String hex = completionId.substring(dash + 1);
        return hex.length() == 32 ? hex.substring(0, 16) : null;
    }
}
