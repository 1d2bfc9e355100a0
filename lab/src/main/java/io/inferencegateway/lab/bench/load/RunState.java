package io.inferencegateway.lab.bench.load;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.function.BiConsumer;

import io.netty.channel.EventLoop;

/** What the exchanges of one run share. Mutable parts are touched only on the event loop. */
final class RunState {

    final Ticker ticker;
    final LoadOptions options;
    final EventLoop loop;
    final LiveCounters counters;
    final RequestResult[] results;
    final CountDownLatch remaining;
    final Set<ClientExchange> live = Collections.newSetFromMap(new IdentityHashMap<>());
    /** Told of every result after it is recorded, on the event loop; null for none. */
    BiConsumer<ClientExchange, RequestResult> onFinished;

    RunState(Ticker ticker, LoadOptions options, EventLoop loop, LiveCounters counters, int requests) {
        this.ticker = ticker;
        this.options = options;
        this.loop = loop;
        this.counters = counters;
        this.results = new RequestResult[requests];
        this.remaining = new CountDownLatch(requests);
    }

    void started(ClientExchange exchange) {
        live.add(exchange);
        counters.onSent();
    }

    void finished(ClientExchange exchange, RequestResult result) {
        live.remove(exchange);
        results[result.index()] = result;
        counters.onCompleted(result.outcome().isError());
        if (onFinished != null) {
            onFinished.accept(exchange, result);
        }
        remaining.countDown();
    }
}
