package io.inferencegateway.lab.soak;

import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

import io.inferencegateway.lab.soak.CallOutcome.Kind;
import io.inferencegateway.lab.soak.PlannedCall.Tenant;
import io.lettuce.core.api.sync.RedisCommands;

/**
 * Rate limits against what the clients were admitted: each window's counts are read from Redis (the keys the
 * gateway's reserve script writes) 12 s after the window ends, when its requests have committed their usage and
 * before the keys expire, and compared with the client's tally of the requests the gateway counted in that window
 * ({@link CallOutcome#rateWindow()}). Windows within 2 s of a Redis outage are left out: the gateways fail open while
 * it is down, and a restarted Redis starts empty.
 *
 * <p>The bounds, from docs/auth.md: silver's real usage admitted in a window is at most its token budget plus one
 * request's reservation, and Redis holds exactly that usage plus the reservations of its admitted requests whose usage
 * never came (cut or failed), each at most its prompt estimate plus {@code max_tokens}; bronze's admitted requests are
 * at most its request budget, and Redis counts each admitted request, including those the gateway refused itself after
 * admission (a shed sheddable request, no pod: their tokens are given back, their request is not) and at most every
 * request that got no answer at all (its replica died) while the window ran.
 */
final class RateLimitCheck {

    private static final long READ_AFTER = 12_000;
    private static final long REDIS_MARGIN = 2_000;

    private record Counts(long silverTokens, long bronzeRequests) {
    }

    private final RedisCommands<String, String> redis;
    private final long origin;
    private final SoakConfig config;
    private final Map<Long, Counts> read = new ConcurrentHashMap<>();
    private volatile boolean stopped;

    RateLimitCheck(RedisCommands<String, String> redis, long origin, SoakConfig config) {
        this.redis = redis;
        this.origin = origin;
        this.config = config;
    }

    /** Reads each window's counts when their time comes, until {@code untilMillis} after the origin or stopped. */
    void sample(long untilMillis) {
        long w = origin / SoakConfig.WINDOW_MILLIS;
        while (!stopped) {
            long readAt = (w + 1) * SoakConfig.WINDOW_MILLIS + READ_AFTER;
            if (readAt - origin > untilMillis) {
                return;
            }
            long wait = readAt - System.currentTimeMillis();
            try {
                if (wait > 0) {
                    Thread.sleep(wait);
                }
            } catch (InterruptedException e) {
                return;
            }
            try {
                read.put(w, new Counts(number(redis.get("igw:rl:{silver}:" + w + ":t")),
                        number(redis.get("igw:rl:{bronze}:" + w + ":r"))));
            } catch (RuntimeException redisDown) {
                // the window is left out
            }
            w++;
        }
    }

    void stop() {
        stopped = true;
    }

    private static long number(String value) {
        return value == null ? 0 : Long.parseLong(value);
    }

    void verify(InvariantTable table, Collection<CallOutcome> outcomes, java.util.List<FaultTimeline.Entry> timeline,
                long origin) {
        FaultTimeline faults = new FaultTimeline(timeline, 0, Integer.MAX_VALUE);
        long oneReservation = TrafficPlan.PROMPT_TOKENS_MAX + TrafficPlan.OUTPUT_TOKENS_MAX + 32;
        int skipped = 0;
        for (Map.Entry<Long, Counts> e : new TreeMap<>(read).entrySet()) {
            long w = e.getKey();
            long from = w * SoakConfig.WINDOW_MILLIS - origin;
            long to = from + SoakConfig.WINDOW_MILLIS + READ_AFTER;
            if (from < 0 || faults.redisDownDuring(from, to, REDIS_MARGIN)) { // before the load: the warm-up's
                skipped++;
                continue;
            }
            long usage = 0;
            long unknownBound = 0;
            long bronzeAdmitted = 0;
            long bronzeRefusedAfter = 0;
            long bronzeUnseen = 0;
            for (CallOutcome o : outcomes) {
                if (o.rateWindow() != w) {
                    continue;
                }
                if (o.call().tenant() == Tenant.SILVER && o.status() == 200) {
                    if (o.kind() == Kind.COMPLETED && o.usageTokens() >= 0) {
                        usage += o.usageTokens();
                    } else {
                        unknownBound += o.call().prompt().length() / 3 + o.call().maxTokens() + 32;
                    }
                } else if (o.call().tenant() == Tenant.BRONZE) {
                    if (o.status() == 200) {
                        bronzeAdmitted++;
                    } else if (!"rate_limit_exceeded".equals(o.code())) {
                        // admitted, then refused by the gateway itself (shed, no pod): its request stays counted
                        bronzeRefusedAfter++;
                    }
                }
            }
            for (CallOutcome o : outcomes) { // the client never saw whether these were admitted (their replica died)
                if (o.status() == 0 && o.sentAtMillis() <= to && o.endedAtMillis() >= from) {
                    if (o.call().tenant() == Tenant.BRONZE) {
                        bronzeUnseen++;
                    } else if (o.call().tenant() == Tenant.SILVER) { // its reservation may stay, never settled
                        unknownBound += o.call().prompt().length() / 3 + o.call().maxTokens() + 32;
                    }
                }
            }
            Counts c = e.getValue();
            String at = "window " + w + " (" + from / 1000.0 + " s): ";
            table.check(Soak.RATE_LIMITS, usage <= config.silverTokensPerWindow() + oneReservation,
                    at + "silver admitted " + usage + " tokens, budget " + config.silverTokensPerWindow());
            table.check(Soak.RATE_LIMITS, c.silverTokens() >= usage && c.silverTokens() <= usage + unknownBound,
                    at + "Redis counted " + c.silverTokens() + " silver tokens, clients used " + usage
                            + " and at most " + unknownBound + " more were reserved by requests without usage");
            table.check(Soak.RATE_LIMITS, bronzeAdmitted <= config.bronzeRequestsPerWindow(),
                    at + "bronze admitted " + bronzeAdmitted + " requests, budget " + config.bronzeRequestsPerWindow());
            table.check(Soak.RATE_LIMITS, c.bronzeRequests() >= bronzeAdmitted
                            && c.bronzeRequests() <= bronzeAdmitted + bronzeRefusedAfter + bronzeUnseen,
                    at + "Redis counted " + c.bronzeRequests() + " bronze requests, clients were admitted "
                            + bronzeAdmitted + ", refused after admission " + bronzeRefusedAfter + ", and " + bronzeUnseen
                            + " got no answer");
        }
        table.note(Soak.RATE_LIMITS, read.size() - skipped + " windows of " + SoakConfig.WINDOW_MILLIS / 1000
                + " s checked, " + skipped + " left out for a Redis outage or the warm-up");
    }
}
