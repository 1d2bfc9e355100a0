package io.inferencegateway.config;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The mounted secret files a config names (providers' API keys, the token a global tier sends its clusters, the token
 * this gateway's capacity summary asks for), each read once and watched
 * ({@link SecretFile}); a reload keeps the files it still names and closes the others.
 */
public final class Secrets implements AutoCloseable {

    private final Map<Path, SecretFile> files = new ConcurrentHashMap<>();

    /**
     * Reads every secret file {@code config} names that is not read yet, and closes those it no longer names.
     *
     * @throws InvalidConfigException when a file cannot be read or is empty, naming the config path
     */
    public void apply(GatewayConfig config) throws InvalidConfigException {
        Set<Path> named = new HashSet<>();
        GlobalConfig global = config.global();
        if (global.clusterTokenFile() != null) {
            open(global.clusterTokenFile(), "spec.global.clusterTokenFile");
            named.add(global.clusterTokenFile());
        }
        Path clusterToken = config.cluster().tokenFile();
        if (clusterToken != null) {
            open(clusterToken, "spec.cluster.tokenFile");
            named.add(clusterToken);
        }
        for (TargetConfig t : global.targets()) {
            if (t.apiKeyFile() != null) {
                open(t.apiKeyFile(), "the API key file of provider " + t.name());
                named.add(t.apiKeyFile());
            }
        }
        files.entrySet().removeIf(e -> {
            if (named.contains(e.getKey())) {
                return false;
            }
            e.getValue().close();
            return true;
        });
    }

    private void open(Path file, String what) throws InvalidConfigException {
        if (files.containsKey(file)) {
            return;
        }
        try {
            files.put(file, SecretFile.watch(file, what));
        } catch (IllegalArgumentException e) {
            throw new InvalidConfigException(e.getMessage());
        }
    }

    /** The secret in {@code file} as last read, or null when no applied config names it. */
    public String value(Path file) {
        SecretFile f = file == null ? null : files.get(file);
        return f == null ? null : f.value();
    }

    @Override
    public void close() {
        files.values().forEach(SecretFile::close);
        files.clear();
    }
}
