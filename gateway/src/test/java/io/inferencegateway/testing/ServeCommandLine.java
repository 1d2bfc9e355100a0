package io.inferencegateway.testing;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command that runs the gateway by itself, as a process of its own: {@code java -cp <the gateway's jar and its
 * runtime dependencies> io.inferencegateway.camel.ServeCommand --config FILE --port N}, Camel Main with the routes and
 * Kamelets its jar carries. The classpath is the one gateway/pom.xml hands the integration tests.
 */
public final class ServeCommandLine {

    private ServeCommandLine() {
    }

    /** {@code jvmOptions} go before the class, e.g. {@code -Xmx512m} or {@code -Dgateway.drainDelay=2s}. */
    public static List<String> of(List<String> jvmOptions, Path config, int port) {
        String classpath = System.getProperty("gateway.classpath");
        if (classpath == null) {
            throw new IllegalStateException("gateway.classpath is unset: the integration tests run with `mvn verify`");
        }
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", classpath, "io.inferencegateway.camel.ServeCommand",
                "--config", config.toString(), "--port", Integer.toString(port)));
        return command;
    }
}
