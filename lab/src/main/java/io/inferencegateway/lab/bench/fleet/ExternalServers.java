package io.inferencegateway.lab.bench.fleet;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Model servers a user already runs, which the bench uses as its pods instead of starting any
 * ({@code bench --endpoints host:port,... --engine NAME}). They are what they are: the bench cannot restart them, slow
 * them down or break them, and their caches outlive every run.
 *
 * @param engine    what they run, which says which metric names the gateway reads ({@code engineType})
 * @param endpoints one per server, in the order given; each keeps the host as typed, which is how the gateway's
 *                  config and access log name it
 */
public record ExternalServers(ServerEngine engine, List<InetSocketAddress> endpoints) {

    public ExternalServers {
        endpoints = List.copyOf(endpoints);
        if (endpoints.isEmpty()) {
            throw new IllegalArgumentException("--endpoints needs at least one host:port");
        }
    }

    /** {@code host:port} of an endpoint (an IPv6 host in brackets), as the gateway's config names it. */
    public static String name(InetSocketAddress endpoint) {
        String host = endpoint.getHostString();
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + endpoint.getPort();
    }

    public List<String> names() {
        return endpoints.stream().map(ExternalServers::name).toList();
    }

    /**
     * The endpoints of {@code --endpoints}: each {@code host:port} (an IPv6 host in brackets), with a port from 1 to
     * 65535, a host that resolves, and none twice.
     *
     * @throws IllegalArgumentException naming the first entry that is not one, and why
     */
    public static List<InetSocketAddress> parse(List<String> entries) {
        List<InetSocketAddress> endpoints = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (String raw : entries) {
            String entry = raw.trim();
            InetSocketAddress endpoint = parseOne(entry);
            if (!seen.add(name(endpoint))) {
                throw new IllegalArgumentException("--endpoints lists " + entry + " twice");
            }
            endpoints.add(endpoint);
        }
        if (endpoints.isEmpty()) {
            throw new IllegalArgumentException("--endpoints needs at least one host:port");
        }
        return endpoints;
    }

    private static InetSocketAddress parseOne(String entry) {
        String problem = "--endpoints entry '" + entry + "' is not host:port";
        if (entry.isEmpty()) {
            throw new IllegalArgumentException("--endpoints has an empty entry (two commas, or one at an end)");
        }
        if (entry.contains("://")) {
            throw new IllegalArgumentException(problem + ": give the server's address without a scheme, e.g. "
                    + "127.0.0.1:8081");
        }
        URI uri;
        try {
            uri = new URI("http://" + entry);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(problem, e);
        }
        if (uri.getHost() == null || uri.getRawUserInfo() != null || !uri.getRawPath().isEmpty()
                || uri.getRawQuery() != null || uri.getRawFragment() != null) {
            throw new IllegalArgumentException(problem);
        }
        if (uri.getPort() == -1) {
            throw new IllegalArgumentException(problem + ": the port is missing");
        }
        if (uri.getPort() < 1 || uri.getPort() > 65535) {
            throw new IllegalArgumentException(problem + ": the port must be from 1 to 65535");
        }
        String host = uri.getHost().startsWith("[") ? uri.getHost().substring(1, uri.getHost().length() - 1)
                : uri.getHost();
        InetSocketAddress address = new InetSocketAddress(host, uri.getPort());
        if (address.isUnresolved()) {
            throw new IllegalArgumentException("--endpoints entry '" + entry + "': host " + host + " does not resolve");
        }
        return address;
    }
}
