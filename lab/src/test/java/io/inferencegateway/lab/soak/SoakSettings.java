package io.inferencegateway.lab.soak;

import java.nio.file.Path;
import java.time.Duration;

/**
 * How a soak runs.
 *
 * @param load          the share of the listed pods' capacity the traffic offers (0.6: 60 %)
 * @param rate          requests per wall-clock second; the fleet's time scale is chosen so that this is {@code load}
 * @param meanFaultGap  mean time between two faults (reloads come on top, every 3 to 7 s)
 * @param grace         how long after a fault's injection (or healing) the gateway has to detect it
 * @param leakDetection Netty's leak detector level on the gateway processes ({@code paranoid}, {@code simple})
 * @param jar           the runnable jar the replicas run
 * @param workDir       where config, logs and the history go
 */
record SoakSettings(Duration duration, long seed, double load, double rate, int listedPods, int sparePods,
                    Duration meanFaultGap, Duration grace, String leakDetection, Path jar, Path workDir) {

    static SoakSettings ci(Path jar, Path workDir, long seed) {
        return new SoakSettings(Duration.ofSeconds(80), seed, 0.6, 6, 6, 2, Duration.ofMillis(2_500),
                Duration.ofSeconds(2), "paranoid", jar, workDir);
    }
}
