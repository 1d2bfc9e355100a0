package io.inferencegateway.domain;

import java.util.Objects;

/**
 * What a request is sent to: a model server at {@code host:port} and, where one server runs several data-parallel
 * engine ranks, one of them; the key of every per-endpoint structure. Its {@link #role} says what it does (everything,
 * or one phase of a disaggregated request): what an endpoint does, not which it is, so it takes no part in equality
 * (a pod relabelled is the same endpoint, with the same counts and cache).
 *
 * @param rank the data-parallel rank this endpoint addresses on its server, or {@link #NO_RANK} for the server as a
 *             whole
 */
public record Endpoint(String host, int port, int rank, EndpointRole role) {

    /** The rank of an endpoint that is a whole server. */
    public static final int NO_RANK = -1;

    public Endpoint {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(role, "role");
        if (host.isBlank()) {
            throw new IllegalArgumentException("host must not be blank");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port must be 1..65535, got " + port);
        }
        if (rank < NO_RANK) {
            throw new IllegalArgumentException("rank must be 0 or more (or NO_RANK), got " + rank);
        }
    }

    /** A whole server that serves every phase of a request: what a pool that does not disaggregate holds. */
    public Endpoint(String host, int port) {
        this(host, port, NO_RANK, EndpointRole.BOTH);
    }

    /** This endpoint with {@code r} as its role. */
    public Endpoint withRole(EndpointRole r) {
        return r == role ? this : new Endpoint(host, port, rank, r);
    }

    /** The server's address, {@code host:port} (bracketed IPv6): where the connection goes, whatever the rank. */
    public String address() {
        return host.indexOf(':') >= 0 ? "[" + host + "]:" + port : host + ":" + port;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Endpoint e && port == e.port && rank == e.rank && host.equals(e.host);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * host.hashCode() + port) + rank;
    }

    /** Parses {@code host:port} or {@code [v6-address]:port}. */
    public static Endpoint parse(String text) {
        if (text == null) {
            throw new IllegalArgumentException("endpoint must be host:port, got null");
        }
        String s = text.trim();
        int colon = s.lastIndexOf(':');
        if (colon <= 0 || colon == s.length() - 1) {
            throw new IllegalArgumentException("endpoint must be host:port, got '" + text + "'");
        }
        String host = s.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        } else if (host.indexOf(':') >= 0) {
            throw new IllegalArgumentException("IPv6 endpoint must be written [address]:port, got '" + text + "'");
        }
        int port;
        try {
            port = Integer.parseInt(s.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("endpoint port must be a number, got '" + text + "'");
        }
        return new Endpoint(host, port);
    }

    /** {@link #address()}, followed by {@code #rank} for a data-parallel rank. */
    @Override
    public String toString() {
        return rank == NO_RANK ? address() : address() + "#" + rank;
    }
}
