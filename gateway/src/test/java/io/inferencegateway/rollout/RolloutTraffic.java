package io.inferencegateway.rollout;

import java.net.URI;
import java.time.Duration;
import java.util.List;

import io.inferencegateway.config.RolloutConfig;
import io.inferencegateway.domain.GatewayError;
import io.inferencegateway.domain.ParsedBody;
import io.inferencegateway.domain.RequestRecord;
import io.micrometer.core.instrument.MeterRegistry;

/** Rollout configs and the ended requests of their versions, as the request path reports them. */
final class RolloutTraffic {

    static final String BASELINE = "chat-v1";
    static final String CANDIDATE = "chat-v2";

    private RolloutTraffic() {
    }

    /** Rollout meters bound to {@code registry}, as the gateway binds its own. */
    static RolloutMeters meters(MeterRegistry registry) {
        RolloutMeters meters = new RolloutMeters();
        meters.bindTo(registry);
        return meters;
    }

    /** 10 % for a minute, 50 % for a minute, then 100; 20 samples a side, every other margin the default. */
    static RolloutConfig rollout(RolloutConfig.RolloutState state, URI redis) {
        return new RolloutConfig("chat", BASELINE, CANDIDATE, state,
                List.of(new RolloutConfig.Step(10, Duration.ofMinutes(1)),
                        new RolloutConfig.Step(50, Duration.ofMinutes(1)),
                        new RolloutConfig.Step(100, Duration.ZERO)),
                new RolloutConfig.Analysis(20, Duration.ofSeconds(10), 0.01, 0.01, 1.5, 1.5), redis);
    }

    /** A stream of 11 tokens served by {@code version}: its first token after {@code ttftMillis}, then one per 20 ms. */
    static void served(RequestListenerTarget to, String version, long ttftMillis, int count) {
        for (int i = 0; i < count; i++) {
            RequestRecord r = record(version, true);
            r.answered(200, ms(ttftMillis / 2));
            r.firstToken(ms(ttftMillis));
            r.usage(100, 11, 0);
            r.end(RequestRecord.Ending.COMPLETED, ms(ttftMillis + 200));
            to.ended(r);
        }
    }

    /** Requests {@code version}'s model server answered with {@code status} (500, 429, 503 ...). */
    static void answered(RequestListenerTarget to, String version, int status, int count) {
        for (int i = 0; i < count; i++) {
            RequestRecord r = record(version, true);
            r.answered(status, ms(5));
            r.end(RequestRecord.Ending.COMPLETED, ms(6));
            to.ended(r);
        }
    }

    /** Requests the gateway refused for {@code reason} with {@code status}. */
    static void refused(RequestListenerTarget to, String version, GatewayError.Reason reason, int status, int count) {
        for (int i = 0; i < count; i++) {
            RequestRecord r = record(version, false);
            r.failed(reason, status);
            r.end(RequestRecord.Ending.REFUSED, ms(1));
            to.ended(r);
        }
    }

    private static RequestRecord record(String version, boolean stream) {
        RequestRecord r = new RequestRecord(0, 0, "POST", "/v1/chat/completions", "chat", null, null);
        r.parsed(ParsedBody.builder("chat").promptText("hi").promptTokensEstimate(1).stream(stream).build(), 0);
        r.version("chat", version);
        return r;
    }

    private static long ms(long millis) {
        return millis * 1_000_000L;
    }

    /** Whoever hears of ended requests. */
    interface RequestListenerTarget {
        void ended(RequestRecord r);
    }
}
