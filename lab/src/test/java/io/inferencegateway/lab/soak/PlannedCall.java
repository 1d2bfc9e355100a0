package io.inferencegateway.lab.soak;

/**
 * One request of the soak's traffic plan.
 *
 * @param priority          the {@code x-gateway-priority} header, or null for none (the tenant's priority applies)
 * @param hangUpAfterChunks a stream the client closes after this many chunks; -1: read to the end
 * @param replica           the replica it goes to, unless that one is down (then the other)
 */
record PlannedCall(int id, long atMillis, Tenant tenant, boolean stream, String priority, String prompt,
                   int maxTokens, int hangUpAfterChunks, int replica) {

    /** The soak's tenants: what they may do is in the config {@link SoakConfig} writes. */
    enum Tenant {
        /** critical, unlimited; the only one whose streams are hung up on (its budget is not checked) */
        GOLD("gold"),
        /** standard, a token budget per window that its traffic overruns at times */
        SILVER("silver"),
        /** sheddable, a request budget per window */
        BRONZE("bronze");

        final String id;

        Tenant(String id) {
            this.id = id;
        }

        String apiKey() {
            return "soak-key-" + id;
        }
    }

    /** Whether the gateway may refuse it as sheddable (its header, else its tenant's priority). */
    boolean sheddable() {
        return priority != null ? priority.equals("sheddable") : tenant == Tenant.BRONZE;
    }
}
