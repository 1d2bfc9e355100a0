package io.inferencegateway.ratelimit;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;

/**
 * The counts in this process's memory: exact for one replica, and each of N replicas admits the full limit (docs/auth.md
 * measures it). One entry per configured scope, so memory is bounded by the config.
 */
public final class LocalLimitStore implements LimitStore {

    private final LongSupplier clockMillis;
    private final Map<String, Counts> counts = new HashMap<>();

    private static final class Counts {
        long window = -1;
        long requests;
        long tokens;
    }

    public LocalLimitStore(LongSupplier clockMillis) {
        this.clockMillis = clockMillis;
    }

    @Override
    public synchronized CompletableFuture<Verdict> reserve(List<Scope> scopes, long tokens, long windowMillis) {
        long now = clockMillis.getAsLong();
        long window = now / windowMillis;
        long reset = (window + 1) * windowMillis - now;
        long[] out = new long[scopes.size() * 2];
        for (int i = 0; i < scopes.size(); i++) {
            Scope s = scopes.get(i);
            Counts c = counts.computeIfAbsent(s.key(), k -> new Counts());
            if (c.window != window) {
                c.window = window;
                c.requests = 0;
                c.tokens = 0;
            }
            out[2 * i] = c.requests;
            out[2 * i + 1] = c.tokens;
            if (s.rpm() > 0 && c.requests + 1 > s.rpm()) {
                return CompletableFuture.completedFuture(new Verdict(false, window, reset, Verdict.Limit.REQUESTS,
                        fill(scopes, out, i + 1, window)));
            }
            if (s.tpm() > 0 && c.tokens + tokens > s.tpm()) {
                return CompletableFuture.completedFuture(new Verdict(false, window, reset, Verdict.Limit.TOKENS,
                        fill(scopes, out, i + 1, window)));
            }
        }
        for (int i = 0; i < scopes.size(); i++) {
            Counts c = counts.get(scopes.get(i).key());
            out[2 * i] = ++c.requests;
            out[2 * i + 1] = c.tokens += tokens;
        }
        return CompletableFuture.completedFuture(new Verdict(true, window, reset, null, out));
    }

    private long[] fill(List<Scope> scopes, long[] out, int from, long window) {
        for (int i = from; i < scopes.size(); i++) {
            Counts c = counts.get(scopes.get(i).key());
            if (c != null && c.window == window) {
                out[2 * i] = c.requests;
                out[2 * i + 1] = c.tokens;
            }
        }
        return out;
    }

    @Override
    public synchronized void commit(List<Scope> scopes, long window, long deltaTokens) {
        for (Scope s : scopes) {
            Counts c = counts.get(s.key());
            if (c != null && c.window == window) {
                c.tokens = Math.max(0, c.tokens + deltaTokens);
            }
        }
    }

    @Override
    public void close() {
    }
}
