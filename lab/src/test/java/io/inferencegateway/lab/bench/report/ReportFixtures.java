package io.inferencegateway.lab.bench.report;

import java.util.ArrayList;
import java.util.List;

import io.inferencegateway.lab.bench.fleet.FleetSpec;
import io.inferencegateway.lab.bench.load.Outcome;
import io.inferencegateway.lab.bench.load.RequestResult;
import io.inferencegateway.lab.bench.load.RunRecording;

/** Hand-made runs with known numbers. */
final class ReportFixtures {

    static final long MS = 1_000_000L;

    private ReportFixtures() {
    }

    /** {@code n} OK requests with TTFT (i+1)·scale ms, ITL 10 ms, 5 tokens; plus {@code errors} 429s. */
    static RunReport run(String scenario, String policy, int n, long ttftScaleMs, int errors) {
        return run(scenario, policy, n, ttftScaleMs, errors, 0);
    }

    /** As above, every OK request sent {@code sendLagMs} late. */
    static RunReport run(String scenario, String policy, int n, long ttftScaleMs, int errors, long sendLagMs) {
        List<RequestResult> results = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            long ttft = (i + 1) * ttftScaleMs * MS;
            long[] itl = {10 * MS, 10 * MS, 10 * MS, 10 * MS};
            results.add(new RequestResult(i, "m", "unique", "", 100, 5, i * 100 * MS, sendLagMs * MS, Outcome.OK, 200,
                    "", ttft, itl, ttft + 40 * MS, 5, 5, true));
        }
        for (int e = 0; e < errors; e++) {
            int i = n + e;
            results.add(new RequestResult(i, "m", "unique", "", 100, 5, i * 100 * MS, MS, Outcome.HTTP_ERROR, 429,
                    "HTTP 429", -1, new long[0], 2 * MS, 0, 0, false));
        }
        FleetSpec fleet = new FleetSpec("meta-llama/Llama-3.1-8B-Instruct", FleetSpec.pods(4, 1.0, 0.5), List.of(), 0,
                6144, 64, 8192, 2.0);
        return RunReport.of(scenario, scenario + " summary", "unique: prompt 100 tokens", "poisson 10.00 req/s", policy,
                "direct", 42, 10, 30, fleet, new RunRecording(results, 2.0, 15_000 * MS, 7, 7));
    }
}
