package io.inferencegateway.ratelimit;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Counts requests and tokens per scope in fixed windows: {@link #reserve} admits a request only if it fits every
 * scope and then counts it in all of them, as one atomic step; {@link #commit} corrects the tokens counted once the
 * real usage is known. In this process's memory ({@link LocalLimitStore}) or shared on Redis ({@link RedisLimitStore}).
 */
public interface LimitStore extends AutoCloseable {

    CompletableFuture<Verdict> reserve(List<Scope> scopes, long tokens, long windowMillis);

    /** Adds {@code deltaTokens} (negative: returns them) to each scope's count in {@code window}, if it still runs. */
    void commit(List<Scope> scopes, long window, long deltaTokens);

    @Override
    void close();
}
