package io.inferencegateway.domain;

/**
 * What an endpoint does for a request: the whole of it, or one phase of a disaggregated one (the prompt's prefill,
 * or the decode that follows the KV cache's transfer). A pool that does not disaggregate has only {@link #BOTH}.
 */
public enum EndpointRole {
    /** Prefills and decodes: an ordinary model server. */
    BOTH,
    /** Computes a prompt's KV cache for another endpoint to decode from. */
    PREFILL,
    /** Decodes from a KV cache another endpoint computed (or prefills locally when told to). */
    DECODE
}
