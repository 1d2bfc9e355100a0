package io.inferencegateway.lab.bench.gateway;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;

import io.inferencegateway.lab.bench.fleet.FleetSpec;

/**
 * The gateway config of a rollout run: one gpu-aware scheduler per version (each as {@link GatewayConfigWriter}
 * renders it), and a model rewrite that sends the client-facing name to the baseline, with a rollout that moves it to
 * the candidate step by step (docs/configuration.md, {@code spec.modelRewrites}). Durations are simulated time,
 * written as wall time.
 */
public final class RolloutConfigWriter {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES));

    /**
     * The rollout's plan in simulated time.
     *
     * @param steps        the candidate's share in percent and how long each is held (null for the last, 100)
     * @param minSamples   requests each side needs before a step is judged
     * @param interval     how often the analysis runs
     * @param errorRate    most the candidate's error rate may exceed the baseline's, a fraction
     * @param latencyRatio most the candidate's TTFT and TPOT p90 may be over the baseline's, a ratio
     */
    public record Plan(String name, List<Step> steps, int minSamples, Duration interval, double errorRate,
                       double latencyRatio) {

        public Plan {
            steps = List.copyOf(steps);
        }

        public record Step(int weight, Duration duration) {
        }
    }

    private RolloutConfigWriter() {
    }

    public static String render(FleetSpec baseline, List<InetSocketAddress> baselinePods, FleetSpec candidate,
                                List<InetSocketAddress> candidatePods, Plan plan, Duration routeTimeout,
                                Duration metricsInterval) {
        double scale = baseline.timeScale();
        Map<String, Object> doc = parse(GatewayConfigWriter.render(baseline, "gpu-aware", baselinePods, routeTimeout,
                metricsInterval));
        Map<String, Object> other = parse(GatewayConfigWriter.render(candidate, "gpu-aware", candidatePods,
                routeTimeout, metricsInterval));
        @SuppressWarnings("unchecked")
        Map<String, Object> spec = (Map<String, Object>) doc.get("spec");
        @SuppressWarnings("unchecked")
        List<Object> schedulers = new ArrayList<>((List<Object>) spec.get("schedulers"));
        @SuppressWarnings("unchecked")
        List<Object> candidateSchedulers = (List<Object>) ((Map<String, Object>) other.get("spec")).get("schedulers");
        schedulers.addAll(candidateSchedulers);
        spec.put("schedulers", schedulers);

        List<Object> steps = new ArrayList<>();
        for (Plan.Step s : plan.steps()) {
            Map<String, Object> step = new LinkedHashMap<>();
            step.put("weight", s.weight());
            if (s.duration() != null) {
                step.put("duration", wallMillis(s.duration(), scale));
            }
            steps.add(step);
        }
        Map<String, Object> analysis = new LinkedHashMap<>();
        analysis.put("minSamples", plan.minSamples());
        analysis.put("interval", wallMillis(plan.interval(), scale));
        analysis.put("errorRate", plan.errorRate());
        analysis.put("ttftP90", plan.latencyRatio());
        analysis.put("tpotP90", plan.latencyRatio());
        Map<String, Object> rollout = new LinkedHashMap<>();
        rollout.put("baseline", baseline.modelName());
        rollout.put("candidate", candidate.modelName());
        rollout.put("steps", steps);
        rollout.put("analysis", analysis);
        Map<String, Object> rewrite = new LinkedHashMap<>();
        rewrite.put("name", plan.name());
        // weights must be positive and sum to 100; the rollout replaces them with (100 - p, p) as it goes
        int first = plan.steps().get(0).weight();
        rewrite.put("rules", List.of(Map.of("targets", List.of(target(baseline.modelName(), 100 - first),
                target(candidate.modelName(), first)))));
        rewrite.put("rollout", rollout);
        spec.put("modelRewrites", List.of(rewrite));
        try {
            return YAML.writeValueAsString(doc);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot render the rollout's gateway config", e);
        }
    }

    private static Map<String, Object> target(String model, int weight) {
        Map<String, Object> target = new LinkedHashMap<>();
        target.put("model", model);
        target.put("weight", weight);
        return target;
    }

    private static Map<String, Object> parse(String yaml) {
        try {
            return YAML.readValue(yaml, new TypeReference<LinkedHashMap<String, Object>>() { });
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot read back a rendered config", e);
        }
    }

    private static String wallMillis(Duration simulated, double timeScale) {
        return Math.max(1, Math.round(simulated.toNanos() / timeScale / 1e6)) + "ms";
    }
}
