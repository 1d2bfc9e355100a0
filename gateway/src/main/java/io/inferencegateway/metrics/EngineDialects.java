package io.inferencegateway.metrics;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every engine a pool's {@code engineType} may name, by its dialect's config name. A new engine is one dialect file
 * in this package that declares its name, plus one line here and its value in the CRD's {@code engineType} enum;
 * see docs/adding-an-engine.md.
 */
public final class EngineDialects {

    private static final Map<String, EngineDialect> BY_NAME = byName(List.of(
            VllmDialect.INSTANCE,
            SglangDialect.INSTANCE,
            TgiDialect.INSTANCE,
            TrtllmDialect.INSTANCE,
            LlamaCppDialect.INSTANCE,
            InferenceGatewayDialect.INSTANCE));

    private EngineDialects() {
    }

    /** The config name of every registered engine, in registration order. */
    public static List<String> names() {
        return List.copyOf(BY_NAME.keySet());
    }

    /** The dialect of the engine a pool names; config validation has already refused any other name. */
    public static EngineDialect forEngine(String name) {
        EngineDialect dialect = BY_NAME.get(name);
        if (dialect == null) {
            throw new IllegalArgumentException("no engine dialect named '" + name + "' (" + String.join(", ", names())
                    + ")");
        }
        return dialect;
    }

    static Map<String, EngineDialect> byName(List<EngineDialect> dialects) {
        Map<String, EngineDialect> byName = new LinkedHashMap<>();
        for (EngineDialect d : dialects) {
            if (byName.putIfAbsent(d.name(), d) != null) {
                throw new IllegalArgumentException("engine '" + d.name() + "' is registered twice");
            }
        }
        return byName;
    }
}
