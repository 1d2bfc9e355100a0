package io.inferencegateway.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.Price;

/** Validates {@code spec.global} and the targets of a global tier's pools, with path-named errors. */
final class GlobalValidation {

    private GlobalValidation() {
    }

    static GlobalConfig global(InferenceGatewayConfig.Global g) throws InvalidConfigException {
        if (g == null) {
            return GlobalConfig.NONE;
        }
        String at = "spec.global";
        String region = ConfigChecks.required(g.region(), at + ".region");
        List<TargetConfig> targets = new ArrayList<>();
        Map<String, String> names = new HashMap<>();
        Map<Endpoint, String> addresses = new HashMap<>();
        List<InferenceGatewayConfig.ClusterTarget> clusters = g.clusters() == null ? List.of() : g.clusters();
        for (int i = 0; i < clusters.size(); i++) {
            String cat = at + ".clusters[" + i + "]";
            InferenceGatewayConfig.ClusterTarget c = clusters.get(i);
            if (c == null) {
                throw new InvalidConfigException(cat + " must not be empty");
            }
            String name = name(cat, c.name(), names);
            URI url = url(cat + ".url", c.url());
            targets.add(claim(addresses, cat + ".url", new TargetConfig(name, TargetConfig.Kind.CLUSTER, address(url),
                    "https".equals(url.getScheme()), basePath(url), ConfigChecks.required(c.region(), cat + ".region"),
                    price(cat + ".price", c.price()), null, Map.of())));
        }
        List<InferenceGatewayConfig.ProviderTarget> providers = g.providers() == null ? List.of() : g.providers();
        for (int i = 0; i < providers.size(); i++) {
            String pat = at + ".providers[" + i + "]";
            InferenceGatewayConfig.ProviderTarget p = providers.get(i);
            if (p == null) {
                throw new InvalidConfigException(pat + " must not be empty");
            }
            String name = name(pat, p.name(), names);
            URI url = url(pat + ".baseUrl", p.baseUrl());
            if (p.models() == null || p.models().isEmpty()) {
                throw new InvalidConfigException(pat + ".models must map at least one local model name to the "
                        + "provider's name for it");
            }
            Map<String, String> models = new LinkedHashMap<>();
            for (Map.Entry<String, String> m : p.models().entrySet()) {
                models.put(ConfigChecks.required(m.getKey(), pat + ".models key"),
                        ConfigChecks.required(m.getValue(), pat + ".models." + m.getKey()));
            }
            Path key = p.apiKeyFile() == null ? null : Path.of(ConfigChecks.required(p.apiKeyFile(), pat + ".apiKeyFile"));
            String where = p.region() == null ? "" : ConfigChecks.required(p.region(), pat + ".region");
            targets.add(claim(addresses, pat + ".baseUrl", new TargetConfig(name, TargetConfig.Kind.PROVIDER,
                    address(url), "https".equals(url.getScheme()), basePath(url), where,
                    price(pat + ".price", p.price()), key, models)));
        }
        if (targets.isEmpty()) {
            throw new InvalidConfigException(at + " must list at least one of clusters or providers");
        }
        GlobalConfig.TlsFiles tls = GlobalConfig.TlsFiles.JDK;
        if (g.tls() != null) {
            InferenceGatewayConfig.Tls t = g.tls();
            if ((t.certFile() == null) != (t.keyFile() == null)) {
                throw new InvalidConfigException(at + ".tls needs both certFile and keyFile for a client certificate, "
                        + "or neither");
            }
            tls = new GlobalConfig.TlsFiles(file(t.caFile(), at + ".tls.caFile"), file(t.certFile(), at + ".tls.certFile"),
                    file(t.keyFile(), at + ".tls.keyFile"));
        }
        return new GlobalConfig(region, targets, file(g.clusterTokenFile(), at + ".clusterTokenFile"), tls,
                ConfigChecks.duration(g.summaryInterval(), at + ".summaryInterval",
                        GlobalConfig.DEFAULT_SUMMARY_INTERVAL, ConfigChecks.MIN_POLL_INTERVAL,
                        ConfigChecks.MAX_POLL_INTERVAL));
    }

    /**
     * The targets of a global tier's pool: those {@code names} lists, else every cluster and every provider that maps
     * the pool's model. A provider listed must map the model.
     */
    static List<TargetConfig> poolTargets(String at, List<String> names, GlobalConfig global, String modelName)
            throws InvalidConfigException {
        if (names == null) {
            List<TargetConfig> all = new ArrayList<>();
            for (TargetConfig t : global.targets()) {
                if (t.serves(modelName)) {
                    all.add(t);
                }
            }
            return all;
        }
        if (names.isEmpty()) {
            throw new InvalidConfigException(at + ".targets must name at least one cluster or provider");
        }
        List<TargetConfig> out = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            String path = at + ".targets[" + i + "]";
            TargetConfig t = global.target(ConfigChecks.required(names.get(i), path));
            if (t == null) {
                Set<String> known = new TreeSet<>();
                global.targets().forEach(k -> known.add(k.name()));
                throw new InvalidConfigException(path + " '" + names.get(i) + "' is not a cluster or provider of "
                        + "spec.global (" + String.join(", ", known) + ")");
            }
            if (!t.serves(modelName)) {
                throw new InvalidConfigException(path + " '" + t.name() + "' is a provider whose models do not map '"
                        + modelName + "'");
            }
            if (out.contains(t)) {
                throw new InvalidConfigException(path + " '" + t.name() + "' is listed twice");
            }
            out.add(t);
        }
        return out;
    }

    /** The regions of a tenant's data-residency pin, each one a target of {@code global} is in. */
    static Set<String> regions(String at, List<String> regions, GlobalConfig global) throws InvalidConfigException {
        if (regions == null) {
            return Set.of();
        }
        if (!global.enabled()) {
            throw new InvalidConfigException(at + " pins a tenant to regions, which only a global tier (spec.global) "
                    + "serves from");
        }
        Set<String> known = new TreeSet<>();
        global.targets().forEach(t -> known.add(t.region()));
        Set<String> out = new TreeSet<>();
        for (int i = 0; i < regions.size(); i++) {
            String r = ConfigChecks.required(regions.get(i), at + "[" + i + "]");
            if (!known.contains(r)) {
                throw new InvalidConfigException(at + "[" + i + "] '" + r + "' is the region of no target of "
                        + "spec.global (" + String.join(", ", known) + ")");
            }
            out.add(r);
        }
        return out;
    }

    private static String name(String at, String name, Map<String, String> taken) throws InvalidConfigException {
        String n = ConfigChecks.required(name, at + ".name");
        if (!n.matches("[a-z0-9]([a-z0-9.-]{0,61}[a-z0-9])?")) {
            throw new InvalidConfigException(at + ".name must be lower-case letters, digits, '.' or '-' (a metric "
                    + "label), got '" + n + "'");
        }
        String previous = taken.putIfAbsent(n, at + ".name");
        if (previous != null) {
            throw new InvalidConfigException(at + ".name '" + n + "' duplicates " + previous);
        }
        return n;
    }

    private static URI url(String path, String text) throws InvalidConfigException {
        String t = ConfigChecks.required(text, path);
        URI url;
        try {
            url = new URI(t);
        } catch (URISyntaxException e) {
            url = null;
        }
        if (url == null || url.getHost() == null || !("http".equals(url.getScheme()) || "https".equals(url.getScheme()))
                || url.getQuery() != null || url.getFragment() != null || url.getUserInfo() != null) {
            throw new InvalidConfigException(path + " must be an http(s) URL with a host and no query, got '" + t + "'");
        }
        return url;
    }

    private static Endpoint address(URI url) {
        int port = url.getPort() > 0 ? url.getPort() : "https".equals(url.getScheme()) ? 443 : 80;
        return new Endpoint(url.getHost().startsWith("[") ? url.getHost().substring(1, url.getHost().length() - 1)
                : url.getHost(), port);
    }

    private static String basePath(URI url) {
        String p = url.getRawPath() == null ? "" : url.getRawPath();
        while (p.endsWith("/")) {
            p = p.substring(0, p.length() - 1);
        }
        return p;
    }

    private static TargetConfig claim(Map<Endpoint, String> addresses, String path, TargetConfig t)
            throws InvalidConfigException {
        String previous = addresses.putIfAbsent(t.address(), path);
        if (previous != null) {
            throw new InvalidConfigException(path + " " + t.address() + " is also " + previous
                    + ": each target needs its own host and port");
        }
        return t;
    }

    private static Price price(String at, InferenceGatewayConfig.PriceSpec p) throws InvalidConfigException {
        if (p == null) {
            return Price.FREE;
        }
        return new Price(perMillion(at + ".input", p.input()), perMillion(at + ".output", p.output()));
    }

    private static double perMillion(String path, Double value) throws InvalidConfigException {
        if (value == null) {
            return 0;
        }
        if (!(value >= 0 && value <= 1_000_000)) {
            throw new InvalidConfigException(path + " must be a price per million tokens, 0..1000000, got " + value);
        }
        return value;
    }

    private static Path file(String text, String path) throws InvalidConfigException {
        return text == null ? null : Path.of(ConfigChecks.required(text, path));
    }
}
