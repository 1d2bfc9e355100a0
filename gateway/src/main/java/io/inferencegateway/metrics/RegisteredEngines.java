package io.inferencegateway.metrics;

import java.util.List;

import io.inferencegateway.config.EngineCatalog;

/**
 * The registered engine dialects as config validation sees them (a {@link java.util.ServiceLoader} service, listed
 * in src/main/resources/META-INF/services/io.inferencegateway.config.EngineCatalog).
 */
public final class RegisteredEngines implements EngineCatalog {

    @Override
    public List<String> names() {
        return EngineDialects.names();
    }
}
