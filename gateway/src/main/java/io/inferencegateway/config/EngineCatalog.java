package io.inferencegateway.config;

import java.util.List;

/**
 * What config validation needs to know about the model-server engines: the names a pool's {@code engineType} may
 * take. The metrics code supplies it through {@link java.util.ServiceLoader}
 * (src/main/resources/META-INF/services/io.inferencegateway.config.EngineCatalog), so that config does not depend
 * on the engine dialects.
 */
public interface EngineCatalog {

    /** The config name of every registered engine, in registration order, e.g. {@code vllm}. */
    List<String> names();
}
