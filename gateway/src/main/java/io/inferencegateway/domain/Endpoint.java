package io.inferencegateway.domain;

import java.util.Objects;

/** A model-server address, written {@code host:port}; the key of every per-pod structure. */
public record Endpoint(String host, int port) {

    public Endpoint {
        Objects.requireNonNull(host, "host");
        if (host.isBlank()) {
            throw new IllegalArgumentException("host must not be blank");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port must be 1..65535, got " + port);
        }
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

    @Override
    public String toString() {
        return host.indexOf(':') >= 0 ? "[" + host + "]:" + port : host + ":" + port;
    }
}
