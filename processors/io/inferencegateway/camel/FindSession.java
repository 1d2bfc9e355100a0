package io.inferencegateway.camel;

import java.util.List;

import io.inferencegateway.config.SessionAffinityConfig;
import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.request.GatewayRequest;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * Names the conversation a request belongs to, for its pool's session affinity (docs/sessions.md): the first of the
 * pool's {@code sessionAffinity.keys} the request carries, the body's {@code prompt_cache_key} or {@code user} or the
 * session header. A pool without session affinity, or a request with none of them, is left as it is; the scheduler
 * then places it by prefix and load alone.
 */
public class FindSession implements Processor {

    @Override
    public void process(Exchange exchange) {
        GatewayRequest request = GatewayExchange.request(exchange);
        SessionAffinityConfig sessions = request.pool().config().sessionAffinity();
        if (!sessions.enabled()) {
            return;
        }
        String key = key(sessions, request);
        if (key != null) {
            request.inSession(key);
        }
    }

    /** The first key of the pool's order that the request carries, non-empty; null when none. */
    static String key(SessionAffinityConfig sessions, GatewayRequest request) {
        InferenceRequest parsed = request.parsed();
        List<SessionAffinityConfig.SessionKey> keys = sessions.keys();
        for (int i = 0; i < keys.size(); i++) {
            String value = switch (keys.get(i)) {
                case PROMPT_CACHE_KEY -> parsed.promptCacheKey();
                case USER -> parsed.user();
                case HEADER -> request.headers().get(sessions.header());
            };
            if (value != null && !value.isEmpty()) {
                return value;
            }
        }
        return null;
    }
}
