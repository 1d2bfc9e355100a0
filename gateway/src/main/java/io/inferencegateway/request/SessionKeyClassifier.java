package io.inferencegateway.request;

import java.util.List;

import io.inferencegateway.config.SessionAffinityConfig;
import io.inferencegateway.domain.InferenceRequestBuilder;
import io.inferencegateway.domain.ParsedBody;

/**
 * The conversation a request belongs to, for its pool's session affinity (docs/sessions.md): the first of the pool's
 * {@code sessionAffinity.keys} the request carries, the body's {@code prompt_cache_key} or {@code user} or the
 * session header, non-empty. A pool without session affinity, or a request with none of them, has no session; the
 * scheduler then places it by prefix and load alone.
 */
public final class SessionKeyClassifier implements RequestClassifier {

    @Override
    public void classify(GatewayRequest request, InferenceRequestBuilder into) {
        SessionAffinityConfig sessions = request.pool().config().sessionAffinity();
        if (sessions.enabled()) {
            into.session(key(sessions, request));
        }
    }

    /** The first key of the pool's order that the request carries, non-empty; null when none. */
    static String key(SessionAffinityConfig sessions, GatewayRequest request) {
        ParsedBody body = request.parsedBody();
        List<SessionAffinityConfig.SessionKey> keys = sessions.keys();
        for (int i = 0; i < keys.size(); i++) {
            String value = switch (keys.get(i)) {
                case PROMPT_CACHE_KEY -> body.promptCacheKey();
                case USER -> body.user();
                case HEADER -> request.headers().get(sessions.header());
            };
            if (value != null && !value.isEmpty()) {
                return value;
            }
        }
        return null;
    }
}
