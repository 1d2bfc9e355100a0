package io.inferencegateway.ratelimit;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A rate-limit decision for one request: admitted (with what it reserved, to be settled when it ends) or refused,
 * and the {@code x-ratelimit-*} headers its response carries, as OpenAI sends them: for requests and for tokens, the
 * tightest budget's limit, what remains of it and when it resets.
 */
public final class Admission {

    private final List<Scope> scopes;
    private final Verdict verdict; // null: not counted (the store was unreachable and the limits fail open)
    private final long reserved;
    private boolean settled;

    Admission(List<Scope> scopes, Verdict verdict, long reserved) {
        this.scopes = scopes;
        this.verdict = verdict;
        this.reserved = reserved;
    }

    public boolean admitted() {
        return verdict == null || verdict.admitted();
    }

    /** Which limit refused the request, or null. */
    public Verdict.Limit refusedBy() {
        return verdict == null ? null : verdict.refused();
    }

    /** Whole seconds until the window resets, at least 1: the {@code Retry-After} of a 429. */
    public long retryAfterSeconds() {
        return verdict == null ? 1 : Math.max(1, (verdict.resetMillis() + 999) / 1000);
    }

    /** The tokens counted for the request at admission. */
    public long reserved() {
        return reserved;
    }

    List<Scope> scopes() {
        return scopes;
    }

    Verdict verdict() {
        return verdict;
    }

    /** Marks it settled; false when it was already (so the tokens are corrected once). */
    boolean settle() {
        if (settled || verdict == null || !verdict.admitted()) {
            return false;
        }
        settled = true;
        return true;
    }

    /** The six {@code x-ratelimit-*} headers (fewer when only one kind of limit applies; none when not counted). */
    public Map<String, String> headers() {
        Map<String, String> h = new LinkedHashMap<>();
        if (verdict == null) {
            return h;
        }
        int rq = -1;
        int tk = -1;
        for (int i = 0; i < scopes.size(); i++) {
            Scope s = scopes.get(i);
            if (s.rpm() > 0 && (rq < 0 || remaining(s.rpm(), verdict.requests(i))
                    < remaining(scopes.get(rq).rpm(), verdict.requests(rq)))) {
                rq = i;
            }
            if (s.tpm() > 0 && (tk < 0 || remaining(s.tpm(), verdict.tokens(i))
                    < remaining(scopes.get(tk).tpm(), verdict.tokens(tk)))) {
                tk = i;
            }
        }
        String reset = duration(verdict.resetMillis());
        if (rq >= 0) {
            h.put("x-ratelimit-limit-requests", Long.toString(scopes.get(rq).rpm()));
            h.put("x-ratelimit-remaining-requests", Long.toString(remaining(scopes.get(rq).rpm(), verdict.requests(rq))));
            h.put("x-ratelimit-reset-requests", reset);
        }
        if (tk >= 0) {
            h.put("x-ratelimit-limit-tokens", Long.toString(scopes.get(tk).tpm()));
            h.put("x-ratelimit-remaining-tokens", Long.toString(remaining(scopes.get(tk).tpm(), verdict.tokens(tk))));
            h.put("x-ratelimit-reset-tokens", reset);
        }
        return h;
    }

    private static long remaining(long limit, long used) {
        return Math.max(0, limit - used);
    }

    /** A reset time as OpenAI writes it: {@code 250ms}, {@code 12.5s}, {@code 1m30s}. */
    static String duration(long millis) {
        if (millis < 1000) {
            return millis + "ms";
        }
        if (millis < 60_000) {
            long tenths = millis / 100;
            return tenths % 10 == 0 ? (tenths / 10) + "s" : (tenths / 10) + "." + (tenths % 10) + "s";
        }
        return (millis / 60_000) + "m" + (millis % 60_000) / 1000 + "s";
    }
}
