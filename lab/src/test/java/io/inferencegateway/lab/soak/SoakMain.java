package io.inferencegateway.lab.soak;

import java.nio.file.Path;
import java.time.Duration;

/**
 * The chaos soak from the command line (docs/benchmarks/soak.md):
 * <pre>
 * mvn -B -q package -DskipTests
 * java -cp lab/target/test-classes:lab/target/classes:$(cat lab/target/test-classpath.txt) \
 *     io.inferencegateway.lab.soak.SoakMain --minutes 10 --seed 42
 * </pre>
 * Options: {@code --minutes M} or {@code --seconds S}, {@code --seed N}, {@code --rate R} (requests per second,
 * default 8), {@code --load L} (default 0.6), {@code --fault-gap-ms G} (default 4000), {@code --leak-detection LEVEL}
 * (default simple), {@code --jar PATH} (default target/inference-gateway.jar), {@code --dir PATH}. Exits 1 when an
 * invariant is broken; the history is in the run's directory.
 */
public final class SoakMain {

    private SoakMain() {
    }

    public static void main(String[] args) throws Exception {
        Duration duration = Duration.ofMinutes(10);
        long seed = 42;
        double rate = 8;
        double load = 0.6;
        long gap = 4_000;
        String leak = "simple";
        Path jar = Path.of("target/inference-gateway.jar");
        Path dir = null;
        for (int i = 0; i < args.length; i++) {
            String v = i + 1 < args.length ? args[i + 1] : "";
            switch (args[i]) {
                case "--minutes" -> duration = Duration.ofMinutes(Long.parseLong(v));
                case "--seconds" -> duration = Duration.ofSeconds(Long.parseLong(v));
                case "--seed" -> seed = Long.parseLong(v);
                case "--rate" -> rate = Double.parseDouble(v);
                case "--load" -> load = Double.parseDouble(v);
                case "--fault-gap-ms" -> gap = Long.parseLong(v);
                case "--leak-detection" -> leak = v;
                case "--jar" -> jar = Path.of(v);
                case "--dir" -> dir = Path.of(v);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
            i++;
        }
        if (dir == null) {
            dir = Path.of("target", "soak-" + seed);
        }
        SoakSettings settings = new SoakSettings(duration, seed, load, rate, 6, 2, Duration.ofMillis(gap),
                Duration.ofSeconds(2), leak, jar.toAbsolutePath(), dir.toAbsolutePath());
        SoakReport report = new Soak(settings, System.out).run();
        System.out.println(report.summary());
        System.out.println("history: " + settings.workDir().resolve("history.txt"));
        System.exit(report.passed() ? 0 : 1);
    }
}
