package io.inferencegateway.domain;

import java.util.Set;

/**
 * Where a request may be served at the global tier (docs/global.md): in which regions, and whether an external
 * provider may serve it. A tenant's data-residency pin; {@link #ANY} elsewhere.
 *
 * @param regions   the regions allowed; empty: any
 * @param providers whether an external provider may serve it
 */
public record Residency(Set<String> regions, boolean providers) {

    public static final Residency ANY = new Residency(Set.of(), true);

    public Residency {
        regions = Set.copyOf(regions);
    }

    /** Whether a target in {@code region}, a provider or not, may serve the request. */
    public boolean allows(String region, boolean provider) {
        return (providers || !provider) && (regions.isEmpty() || regions.contains(region));
    }
}
