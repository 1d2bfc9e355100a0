package io.inferencegateway.lab.bench.global;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;

/**
 * Renders the {@code InferenceGatewayConfig} of a global tier (docs/configuration.md, {@code spec.global}): the
 * regions' clusters with their prices, the home region, and one pool of the model without endpoints, served by the
 * clusters under the policy being measured. Written from the documented format, as the bench's other configs are.
 */
public final class TierConfigWriter {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES));

    private TierConfigWriter() {
    }

    /** A cluster as the tier reaches it: {@code address} is the near end of its link. */
    public record Cluster(RegionProfile region, InetSocketAddress address) {
        String url() {
            return "http://" + address.getHostString() + ":" + address.getPort();
        }
    }

    /**
     * @param clusters     the home region's cluster first
     * @param routeTimeout limit for a cluster's response, wall time; null: the gateway's default
     * @param accessLog    one JSON line per request (target, target_region, cost) in the tier's log
     */
    public static String render(String model, List<Cluster> clusters, GlobalPolicy policy, Duration routeTimeout,
                                boolean accessLog) {
        List<Map<String, Object>> targets = new ArrayList<>();
        for (Cluster c : clusters) {
            Map<String, Object> target = new LinkedHashMap<>();
            target.put("name", c.region().cluster());
            target.put("url", c.url());
            target.put("region", c.region().region());
            target.put("price", Map.of("input", c.region().inputPrice(), "output", c.region().outputPrice()));
            targets.add(target);
        }
        Map<String, Object> global = new LinkedHashMap<>();
        global.put("region", clusters.get(0).region().region());
        global.put("clusters", targets);

        Map<String, Object> scheduler = new LinkedHashMap<>();
        scheduler.put("name", "global");
        scheduler.put("modelName", model);
        if (policy.policy() != null) {
            scheduler.put("policy", policy.policy());
        }
        if (!policy.weights().isEmpty()) {
            scheduler.put("weights", new TreeMap<>(policy.weights()));
        }
        if (!policy.targets().isEmpty()) {
            scheduler.put("targets", policy.targets());
        }
        // the tier counts what each request cost from the usage its cluster reports
        scheduler.put("streamUsage", true);
        if (routeTimeout != null) {
            scheduler.put("routeTimeout", Math.max(1, routeTimeout.toMillis()) + "ms");
        }

        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("global", global);
        spec.put("schedulers", List.of(scheduler));
        if (accessLog) {
            spec.put("observability", Map.of("accessLog", true));
        }
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("apiVersion", "inferencegateway.io/v1alpha1");
        doc.put("kind", "InferenceGatewayConfig");
        doc.put("metadata", Map.of("name", "global-tier"));
        doc.put("spec", spec);
        try {
            return YAML.writeValueAsString(doc);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot render the tier's config", e);
        }
    }
}
