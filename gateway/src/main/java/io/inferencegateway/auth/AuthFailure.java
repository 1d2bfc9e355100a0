package io.inferencegateway.auth;

/** Credentials that do not prove who the caller is; the message is safe to show (it never holds the credential). */
public final class AuthFailure extends RuntimeException {

    /** Why, as a bounded metric label. */
    public enum Cause {
        MISSING, UNKNOWN_KEY, BAD_TOKEN, EXPIRED, WRONG_ISSUER_OR_AUDIENCE, NO_TENANT, UNKNOWN_TENANT;

        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private final Cause kind;

    public AuthFailure(Cause kind, String message) {
        super(message, null, false, false);
        this.kind = kind;
    }

    public Cause kind() {
        return kind;
    }
}
