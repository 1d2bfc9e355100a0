package io.inferencegateway.config;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import io.inferencegateway.config.InferenceGatewayConfig.Scheduler;
import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.LatencyTargets;
import io.inferencegateway.domain.Priority;

/**
 * Reads and validates an {@code InferenceGatewayConfig} YAML document. Every problem is reported as
 * one line that names the path in the document, e.g. {@code spec.schedulers[1].modelName is required}.
 */
public final class ConfigLoader {

    public static final String KIND = "InferenceGatewayConfig";

    /** The one version of the document this loader reads (the CRD's group and version); a config may leave it out. */
    public static final String API_VERSION = "inferencegateway.io/v1alpha1";

    /**
     * The longest duration any setting takes (timeouts, ejections, windows, TTLs): a day. Beyond it a value is a slip of
     * unit or digits, and a wait that long would hold a connection or a pod out of service for good.
     */
    static final Duration MAX_DURATION = Duration.ofHours(24);

    /**
     * Bounds of a polling interval (metricsInterval, spec.global.summaryInterval): below 10ms the gateway would spend
     * itself scraping (the lab's runs floor it there too), above an hour its picture of the pods means nothing.
     */
    static final Duration MIN_POLL_INTERVAL = Duration.ofMillis(10);
    static final Duration MAX_POLL_INTERVAL = Duration.ofHours(1);

    /**
     * The largest scorer weight. Weights are relative and the presets stay under 10; at 1000 one scorer already
     * outvotes all the others together, so more is a typo, not a wish.
     */
    static final int MAX_WEIGHT = 1000;

    /** An unknown field gets a did-you-mean when a known one is at most this many single-letter edits away. */
    private static final int MAX_SUGGESTION_DISTANCE = 2;

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory())
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);

    private ConfigLoader() {
    }

    public static GatewayConfig load(Path file) throws InvalidConfigException {
        try (InputStream in = Files.newInputStream(file)) {
            return parse(in);
        } catch (NoSuchFileException e) {
            throw new InvalidConfigException("config file not found: " + file);
        } catch (IOException e) {
            throw new InvalidConfigException("cannot read config file " + file + ": " + e.getMessage());
        }
    }

    public static GatewayConfig parse(String yaml) throws InvalidConfigException {
        try {
            return read(YAML.readTree(yaml));
        } catch (JsonProcessingException e) {
            throw describe(e);
        }
    }

    public static GatewayConfig parse(InputStream yaml) throws InvalidConfigException {
        try {
            return read(YAML.readTree(yaml));
        } catch (JsonProcessingException e) {
            throw describe(e);
        } catch (IOException e) {
            throw new InvalidConfigException("cannot read config: " + e.getMessage());
        }
    }

    /**
     * The document's kind and apiVersion first, so that another resource (a CRD, a Deployment) is refused by what it
     * is rather than by its first field this loader does not know; then the whole document.
     */
    private static GatewayConfig read(JsonNode tree) throws JsonProcessingException, InvalidConfigException {
        if (tree == null || tree.isMissingNode() || tree.isNull()) {
            throw new InvalidConfigException("config is empty");
        }
        if (tree.isObject()) {
            checkHeader(text(tree.get("kind")), text(tree.get("apiVersion")));
        }
        return validate(YAML.treeToValue(tree, InferenceGatewayConfig.class));
    }

    private static String text(JsonNode node) {
        return node == null || node.isNull() ? null : node.isValueNode() ? node.asText() : node.toString();
    }

    private static void checkHeader(String kind, String apiVersion) throws InvalidConfigException {
        if (!KIND.equals(kind)) {
            throw new InvalidConfigException("kind must be " + KIND + ", got " + kind);
        }
        if (apiVersion != null && !API_VERSION.equals(apiVersion.strip())) {
            throw new InvalidConfigException("apiVersion must be " + API_VERSION + ", got '" + apiVersion + "'");
        }
    }

    private static InvalidConfigException describe(JsonProcessingException e) {
        StreamReadException syntax = syntaxError(e);
        if (syntax != null) {
            String where = syntax.getLocation() == null ? "" : " at line " + syntax.getLocation().getLineNr();
            return new InvalidConfigException("config is not valid YAML" + where + ": "
                    + syntax.getOriginalMessage().split("\n")[0]);
        }
        if (e instanceof UnrecognizedPropertyException u) {
            String suggestion = closest(u.getPropertyName(), u.getKnownPropertyIds());
            return new InvalidConfigException(path(u) + " is not a known field"
                    + (suggestion == null ? "" : "; did you mean " + suggestion + "?"));
        }
        if (e instanceof JsonMappingException m && !m.getPath().isEmpty()) {
            return new InvalidConfigException(path(m) + " has the wrong type: " + m.getOriginalMessage().split("\n")[0]);
        }
        return new InvalidConfigException("config cannot be read: " + e.getOriginalMessage().split("\n")[0]);
    }

    /**
     * The known field most like {@code name}: one that differs only in case, else the nearest within
     * {@link #MAX_SUGGESTION_DISTANCE} edits (the first listed on a tie); null when none is that close.
     */
    static String closest(String name, Collection<Object> known) {
        if (name == null || known == null) {
            return null;
        }
        String best = null;
        int bestDistance = MAX_SUGGESTION_DISTANCE + 1;
        for (Object k : known) {
            String candidate = String.valueOf(k);
            int distance = candidate.equalsIgnoreCase(name) ? 0 : editDistance(name, candidate);
            if (distance < bestDistance) {
                best = candidate;
                bestDistance = distance;
            }
        }
        return best;
    }

    /** Levenshtein distance: insertions, deletions and substitutions of one character each count one. */
    static int editDistance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitute = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitute, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }

    private static StreamReadException syntaxError(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof StreamReadException s) {
                return s;
            }
        }
        return null;
    }

    private static String path(JsonMappingException e) {
        StringBuilder sb = new StringBuilder();
        for (JsonMappingException.Reference ref : e.getPath()) {
            if (ref.getFieldName() != null) {
                if (sb.length() > 0) {
                    sb.append('.');
                }
                sb.append(ref.getFieldName());
            } else if (ref.getIndex() >= 0) {
                sb.append('[').append(ref.getIndex()).append(']');
            }
        }
        return sb.toString();
    }

    static GatewayConfig validate(InferenceGatewayConfig doc) throws InvalidConfigException {
        if (doc == null) {
            throw new InvalidConfigException("config is empty");
        }
        checkHeader(doc.kind(), doc.apiVersion());
        if (doc.spec() == null) {
            throw new InvalidConfigException("spec is required");
        }
        List<Scheduler> schedulers = doc.spec().schedulers();
        if (schedulers == null || schedulers.isEmpty()) {
            throw new InvalidConfigException("spec.schedulers must list at least one scheduler");
        }
        long maxBody = GatewayConfig.DEFAULT_MAX_REQUEST_BODY_BYTES;
        if (doc.spec().bbr() != null && doc.spec().bbr().maxRequestBodyBytes() != null) {
            maxBody = doc.spec().bbr().maxRequestBodyBytes();
            if (maxBody < 1 || maxBody > Integer.MAX_VALUE) {
                throw new InvalidConfigException("spec.bbr.maxRequestBodyBytes must be between 1 and " + Integer.MAX_VALUE);
            }
        }
        GlobalConfig global = GlobalValidation.global(doc.spec().global());
        Map<String, String> servedNames = new HashMap<>();
        Map<String, String> poolNames = new HashMap<>();
        List<PoolConfig> pools = new ArrayList<>();
        for (int i = 0; i < schedulers.size(); i++) {
            PoolConfig pool = validateScheduler("spec.schedulers[" + i + "]", schedulers.get(i), global);
            claim(poolNames, pool.name(), "spec.schedulers[" + i + "].name");
            claim(servedNames, pool.modelName(), "spec.schedulers[" + i + "].modelName");
            for (int a = 0; a < pool.loraAdapters().size(); a++) {
                claim(servedNames, pool.loraAdapters().get(a), "spec.schedulers[" + i + "].loraAdapters[" + a + "]");
            }
            pools.add(pool);
        }
        ShadowValidation.candidates(pools);
        RateLimitConfig rateLimits = AccessValidation.rateLimits(doc.spec().rateLimits());
        return new GatewayConfig(pools, maxBody, observability(doc.spec().observability()),
                AccessValidation.auth(doc.spec().auth()),
                AccessValidation.tenants(doc.spec().tenants(), servedNames, global),
                rateLimits, cluster(doc.spec().cluster()), global,
                ModelRewriteValidation.modelRewrites(doc.spec().modelRewrites(), servedNames.keySet(), rateLimits));
    }

    /** {@code spec.cluster}: names that are label values, and the summary's token file. */
    private static ClusterConfig cluster(InferenceGatewayConfig.Cluster c) throws InvalidConfigException {
        if (c == null) {
            return ClusterConfig.NONE;
        }
        String[] names = {c.name(), c.region()};
        String[] paths = {"spec.cluster.name", "spec.cluster.region"};
        for (int i = 0; i < names.length; i++) {
            if (names[i] != null && !names[i].matches("[A-Za-z0-9][A-Za-z0-9._-]{0,62}")) {
                throw new InvalidConfigException(paths[i] + " must be 1..63 letters, digits, '.', '_' or '-', got '"
                        + names[i] + "'");
            }
        }
        Path token = c.tokenFile() == null ? null : Path.of(required(c.tokenFile(), "spec.cluster.tokenFile"));
        return new ClusterConfig(c.name() == null ? "" : c.name(), c.region() == null ? "" : c.region(), token);
    }

    private static ObservabilityConfig observability(InferenceGatewayConfig.Observability o)
            throws InvalidConfigException {
        if (o == null) {
            return ObservabilityConfig.DEFAULT;
        }
        ObservabilityConfig.TracingConfig tracing = ObservabilityConfig.TracingConfig.OFF;
        InferenceGatewayConfig.Tracing t = o.tracing();
        if (t != null) {
            String at = "spec.observability.tracing";
            URI endpoint = null;
            if (t.otlpEndpoint() != null && !t.otlpEndpoint().isBlank()) {
                try {
                    endpoint = new URI(t.otlpEndpoint().strip());
                } catch (URISyntaxException e) {
                    endpoint = null;
                }
                if (endpoint == null || endpoint.getHost() == null
                        || !("http".equals(endpoint.getScheme()) || "https".equals(endpoint.getScheme()))) {
                    throw new InvalidConfigException(at + ".otlpEndpoint must be an http(s) URL, got '"
                            + t.otlpEndpoint() + "'");
                }
            }
            double ratio = t.samplingRatio() == null ? 1.0 : t.samplingRatio();
            if (!(ratio >= 0 && ratio <= 1)) {
                throw new InvalidConfigException(at + ".samplingRatio must be between 0 and 1, got " + t.samplingRatio());
            }
            String service = t.serviceName() == null || t.serviceName().isBlank()
                    ? ObservabilityConfig.TracingConfig.DEFAULT_SERVICE_NAME : t.serviceName().strip();
            tracing = new ObservabilityConfig.TracingConfig(endpoint, service, ratio);
        }
        return new ObservabilityConfig(!Boolean.FALSE.equals(o.requestMetrics()), Boolean.TRUE.equals(o.accessLog()),
                tracing);
    }

    private static void claim(Map<String, String> taken, String name, String path) throws InvalidConfigException {
        String previous = taken.putIfAbsent(name, path);
        if (previous != null) {
            throw new InvalidConfigException(path + " '" + name + "' duplicates " + previous);
        }
    }

    private static PoolConfig validateScheduler(String at, Scheduler s, GlobalConfig global)
            throws InvalidConfigException {
        if (s == null) {
            throw new InvalidConfigException(at + " must not be empty");
        }
        String modelName = required(s.modelName(), at + ".modelName");
        String name = s.name() == null ? modelName : required(s.name(), at + ".name");

        List<String> adapters = s.loraAdapters() == null ? List.of() : s.loraAdapters();
        for (int a = 0; a < adapters.size(); a++) {
            required(adapters.get(a), at + ".loraAdapters[" + a + "]");
        }

        List<Endpoint> endpoints = new ArrayList<>();
        List<String> rawEndpoints = s.endpoints() == null ? List.of() : s.endpoints();
        for (int e = 0; e < rawEndpoints.size(); e++) {
            try {
                endpoints.add(Endpoint.parse(rawEndpoints.get(e)));
            } catch (IllegalArgumentException ex) {
                throw new InvalidConfigException(at + ".endpoints[" + e + "] " + ex.getMessage());
            }
        }

        Map<String, String> selector = s.modelSelector() == null || s.modelSelector().matchLabels() == null
                ? Map.of() : s.modelSelector().matchLabels();
        if (s.modelSelector() != null && selector.isEmpty()) {
            throw new InvalidConfigException(at + ".modelSelector.matchLabels must name at least one label");
        }
        List<TargetConfig> targets = List.of();
        boolean ofPods = !endpoints.isEmpty() || !selector.isEmpty();
        if (s.targets() != null && !global.enabled()) {
            throw new InvalidConfigException(at + ".targets names clusters or providers, which spec.global declares; "
                    + "there is no spec.global");
        }
        if (ofPods && s.targets() != null) {
            throw new InvalidConfigException(at + " sets both targets and endpoints/modelSelector: a pool is served "
                    + "either by pods or by the global tier's clusters and providers");
        }
        if (!ofPods && !global.enabled()) {
            throw new InvalidConfigException(at + " needs endpoints (host:port list) or a modelSelector");
        }
        if (!ofPods) {
            if (s.engineType() != null) {
                throw new InvalidConfigException(at + ".engineType does not apply to a pool of clusters and providers "
                        + "(they publish the gateway's capacity summary)");
            }
            targets = GlobalValidation.poolTargets(at, s.targets(), global, modelName);
            if (targets.isEmpty()) {
                throw new InvalidConfigException(at + " is served by no cluster or provider of spec.global (no "
                        + "provider's models map '" + modelName + "')");
            }
            for (TargetConfig t : targets) {
                endpoints.add(t.address());
            }
        }

        int targetPort = s.targetPort() == null ? PoolConfig.DEFAULT_TARGET_PORT : s.targetPort();
        if (targetPort < 1 || targetPort > 65535) {
            throw new InvalidConfigException(at + ".targetPort must be 1..65535, got " + targetPort);
        }

        String engine = targets.isEmpty() ? PoolConfig.DEFAULT_ENGINE : PoolConfig.GATEWAY_ENGINE;
        if (s.engineType() != null) {
            engine = s.engineType();
            List<String> engines = InstalledEngines.INSTANCE.names();
            if (!engines.contains(engine)) {
                throw new InvalidConfigException(at + ".engineType must be one of " + String.join(", ", engines)
                        + "; got '" + s.engineType() + "'");
            }
        }

        Policy policy = Policy.GPU_AWARE;
        if (s.policy() != null) {
            policy = Policy.fromConfigName(s.policy());
            if (policy == null) {
                throw new InvalidConfigException(at + ".policy must be one of gpu-aware, round-robin, least-request, "
                        + "random; got '" + s.policy() + "'");
            }
        }

        EndpointPickerConfig endpointPicker;
        if (s.plugins() != null || s.schedulingProfiles() != null) {
            if (s.weights() != null || s.profile() != null) {
                throw new InvalidConfigException(at + " sets both weights/profile and plugins/schedulingProfiles; "
                        + "they are two ways to configure the same scheduler: use one");
            }
            endpointPicker = EndpointPickerValidation.validate(at, s.plugins(), s.schedulingProfiles(), catalog());
        } else {
            endpointPicker = targets.isEmpty() ? weights(at, s).endpointPicker() : globalWeights(at, s).endpointPicker();
        }
        if (!targets.isEmpty() && endpointPicker.profile().plugins().stream()
                .noneMatch(e -> "residency-filter".equals(endpointPicker.plugin(e.pluginRef()).type()))) {
            throw new InvalidConfigException(at + (s.schedulingProfiles() == null ? ".plugins" : ".schedulingProfiles[0]"
                    + ".plugins") + " must use a residency-filter on a pool of clusters and providers: it keeps each "
                    + "tenant's requests in the regions, and away from the providers, its data-residency pin allows");
        }

        Duration routeTimeout = duration(s.routeTimeout(), at + ".routeTimeout", PoolConfig.DEFAULT_ROUTE_TIMEOUT);
        Duration metricsInterval = duration(s.metricsInterval(), at + ".metricsInterval",
                targets.isEmpty() ? PoolConfig.DEFAULT_METRICS_INTERVAL : global.summaryInterval(),
                MIN_POLL_INTERVAL, MAX_POLL_INTERVAL);
        ReplicaConfig replicas = replicas(at + ".replicas", s.replicas());
        Duration scrapeInterval = replicas.scrapeInterval(metricsInterval);
        Duration staleness = duration(s.metricsStalenessThreshold(), at + ".metricsStalenessThreshold",
                PoolConfig.defaultStalenessThreshold(scrapeInterval));
        if (staleness.compareTo(scrapeInterval) < 0) {
            throw new InvalidConfigException(at + ".metricsStalenessThreshold must be at least "
                    + (scrapeInterval.equals(metricsInterval) ? "metricsInterval (" : "metricsInterval × replicas.count (")
                    + Durations.format(scrapeInterval) + "), got '" + s.metricsStalenessThreshold()
                    + "': metrics would go stale between two scrapes");
        }

        return PoolConfig.builder(modelName).name(name).loraAdapters(adapters).endpoints(endpoints)
                .modelSelector(selector).namespace(s.namespace()).targetPort(targetPort).engine(engine).policy(policy)
                .endpointPicker(endpointPicker).routeTimeout(routeTimeout).metricsInterval(metricsInterval)
                .metricsStalenessThreshold(staleness).streamUsage(Boolean.TRUE.equals(s.streamUsage()))
                .failover(failover(at + ".failover", s.failover()))
                .outlierDetection(outlierDetection(at + ".outlierDetection", s.outlierDetection()))
                .flowControl(flowControl(at + ".flowControl", s.flowControl(), modelName, adapters))
                .slo(slo(at + ".slo", s.slo(), modelName, adapters))
                .replicas(replicas).targets(targets).homeRegion(targets.isEmpty() ? null : global.region())
                .shadow(ShadowValidation.shadow(at + ".shadow", s.shadow()))
                .sessionAffinity(SessionAffinityValidation.validate(at + ".sessionAffinity", s.sessionAffinity(),
                        policy == Policy.GPU_AWARE && targets.isEmpty(), !targets.isEmpty()
                                ? "this pool is served by the global tier's clusters and providers"
                                : "this pool's policy is " + s.policy(), endpointPicker))
                .build();
    }

    private static FlowControlConfig flowControl(String at, InferenceGatewayConfig.FlowControlSpec f, String modelName,
            List<String> adapters) throws InvalidConfigException {
        FlowControlConfig d = FlowControlConfig.DEFAULT;
        if (f == null) {
            return d; // off
        }
        int maxQueued = intIn(f.maxQueued(), d.maxQueued(), 0, 1_000_000, at + ".maxQueued");
        Duration queueTimeout = duration(f.queueTimeout(), at + ".queueTimeout", d.queueTimeout());
        Duration retryAfter = duration(f.retryAfter(), at + ".retryAfter", d.retryAfter());
        int defaultPriority = f.defaultPriority() == null ? d.defaultPriority()
                : priority(at + ".defaultPriority", f.defaultPriority());
        Map<String, Integer> priorities = new LinkedHashMap<>();
        if (f.priorities() != null) {
            for (Map.Entry<String, String> e : f.priorities().entrySet()) {
                if (!e.getKey().equals(modelName) && !adapters.contains(e.getKey())) {
                    throw new InvalidConfigException(at + ".priorities names '" + e.getKey() + "', which is neither "
                            + "the pool's modelName nor one of its loraAdapters");
                }
                priorities.put(e.getKey(), priority(at + ".priorities." + e.getKey(), e.getValue()));
            }
        }
        return new FlowControlConfig(!Boolean.FALSE.equals(f.enabled()), maxQueued, queueTimeout, retryAfter,
                defaultPriority, priorities, !Boolean.FALSE.equals(f.priorityHeader()));
    }

    private static SloConfig slo(String at, InferenceGatewayConfig.PoolSlo s, String modelName, List<String> adapters)
            throws InvalidConfigException {
        if (s == null) {
            return SloConfig.NONE;
        }
        Map<String, LatencyTargets> models = new LinkedHashMap<>();
        if (s.models() != null) {
            for (Map.Entry<String, InferenceGatewayConfig.Slo> e : s.models().entrySet()) {
                if (!e.getKey().equals(modelName) && !adapters.contains(e.getKey())) {
                    throw new InvalidConfigException(at + ".models names '" + e.getKey() + "', which is neither "
                            + "the pool's modelName nor one of its loraAdapters");
                }
                InferenceGatewayConfig.Slo m = e.getValue();
                String mat = at + ".models." + e.getKey();
                if (m == null) {
                    throw new InvalidConfigException(mat + " must not be empty");
                }
                models.put(e.getKey(), targets(mat, m.ttft(), m.tpot()));
            }
        }
        return new SloConfig(targets(at, s.ttft(), s.tpot()), models);
    }

    /** Latency targets from two durations, each optional, at least a millisecond, at most an hour. */
    static LatencyTargets targets(String at, String ttft, String tpot) throws InvalidConfigException {
        return new LatencyTargets(targetMillis(at + ".ttft", ttft), targetMillis(at + ".tpot", tpot));
    }

    private static long targetMillis(String path, String text) throws InvalidConfigException {
        Duration d = duration(text, path, Duration.ZERO);
        if (text != null && (d.toMillis() < 1 || d.toMillis() > LatencyTargets.MAX_MILLIS)) {
            throw new InvalidConfigException(path + " must be 1ms..1h, got '" + text + "'");
        }
        return d.toMillis();
    }

    private static int priority(String path, String text) throws InvalidConfigException {
        Integer p = Priority.parse(text);
        if (p == null) {
            throw new InvalidConfigException(path + " must be critical, standard, sheddable or an integer within "
                    + "+-" + Priority.LIMIT + ", got '" + text + "'");
        }
        return p;
    }

    private static ReplicaConfig replicas(String at, InferenceGatewayConfig.Replicas r) throws InvalidConfigException {
        if (r == null) {
            return ReplicaConfig.SINGLE;
        }
        int count = intIn(r.count(), 1, 1, 1024, at + ".count");
        ReplicaConfig.Coordination placement = count > 1 ? ReplicaConfig.Coordination.RENDEZVOUS
                : ReplicaConfig.Coordination.INDEPENDENT;
        if (r.placement() != null) {
            placement = ReplicaConfig.Coordination.fromConfigName(r.placement());
            if (placement == null) {
                throw new InvalidConfigException(at + ".placement must be one of rendezvous, shared, independent; got '"
                        + r.placement() + "'");
            }
        }
        double loadBound = r.loadBound() == null ? ReplicaConfig.DEFAULT_LOAD_BOUND : r.loadBound();
        if (!(loadBound >= 1 && loadBound <= 100)) {
            throw new InvalidConfigException(at + ".loadBound must be between 1 and 100, got " + r.loadBound());
        }
        int keyBlocks = intIn(r.keyBlocks(), ReplicaConfig.DEFAULT_KEY_BLOCKS, 1, 256, at + ".keyBlocks");
        boolean spread = r.spreadScrapes() == null ? count > 1 : r.spreadScrapes();
        URI redisUrl = null;
        if (placement == ReplicaConfig.Coordination.SHARED) {
            if (r.redisUrl() == null || r.redisUrl().isBlank()) {
                throw new InvalidConfigException(at + ".redisUrl is required with placement: shared "
                        + "(e.g. redis://redis:6379)");
            }
            redisUrl = redisUri(at + ".redisUrl", r.redisUrl());
        } else if (r.redisUrl() != null) {
            throw new InvalidConfigException(at + ".redisUrl is only used with placement: shared");
        }
        return new ReplicaConfig(count, placement, loadBound, keyBlocks, spread, redisUrl);
    }

    /** A {@code redis://} or {@code rediss://} URL with a host. */
    static URI redisUri(String at, String text) throws InvalidConfigException {
        URI url;
        try {
            url = new URI(text.strip());
        } catch (URISyntaxException e) {
            url = null;
        }
        if (url == null || url.getHost() == null
                || !("redis".equals(url.getScheme()) || "rediss".equals(url.getScheme()))) {
            throw new InvalidConfigException(at + " must be a redis:// or rediss:// URL, got '" + text + "'");
        }
        return url;
    }

    private static FailoverConfig failover(String at, InferenceGatewayConfig.Failover f) throws InvalidConfigException {
        FailoverConfig d = FailoverConfig.DEFAULT;
        if (f == null) {
            return d;
        }
        int maxAttempts = intIn(f.maxAttempts(), d.maxAttempts(), 1, 10, at + ".maxAttempts");
        double budget = percent(f.retryBudgetPercent(), d.retryBudgetPercent(), at + ".retryBudgetPercent");
        int minRetries = intIn(f.minRetries(), d.minRetries(), 0, 1_000_000, at + ".minRetries");
        return new FailoverConfig(maxAttempts, budget, minRetries);
    }

    private static OutlierConfig outlierDetection(String at, InferenceGatewayConfig.OutlierDetection o)
            throws InvalidConfigException {
        OutlierConfig d = OutlierConfig.DEFAULT;
        if (o == null) {
            return d;
        }
        int consecutive = intIn(o.consecutiveFailures(), d.consecutiveFailures(), 0, 1_000_000,
                at + ".consecutiveFailures");
        double failurePercent = percent(o.failurePercent(), d.failurePercent(), at + ".failurePercent");
        int minimumRequests = intIn(o.minimumRequests(), d.minimumRequests(), 1, 1_000_000, at + ".minimumRequests");
        Duration interval = duration(o.interval(), at + ".interval", d.interval());
        Duration base = duration(o.baseEjectionTime(), at + ".baseEjectionTime", d.baseEjectionTime());
        Duration max = duration(o.maxEjectionTime(), at + ".maxEjectionTime",
                base.compareTo(d.maxEjectionTime()) > 0 ? base : d.maxEjectionTime());
        if (max.compareTo(base) < 0) {
            throw new InvalidConfigException(at + ".maxEjectionTime must be at least baseEjectionTime ("
                    + Durations.format(base) + "), got '" + o.maxEjectionTime() + "'");
        }
        int maxPercent = intIn(o.maxEjectionPercent(), d.maxEjectionPercent(), 0, 100, at + ".maxEjectionPercent");
        return new OutlierConfig(consecutive, failurePercent, minimumRequests, interval, base, max, maxPercent);
    }

    private static int intIn(Integer value, int fallback, int min, int max, String path) throws InvalidConfigException {
        if (value == null) {
            return fallback;
        }
        if (value < min || value > max) {
            throw new InvalidConfigException(path + " must be " + min + ".." + max + ", got " + value);
        }
        return value;
    }

    private static double percent(Double value, double fallback, String path) throws InvalidConfigException {
        if (value == null) {
            return fallback;
        }
        if (!(value >= 0 && value <= 100)) {
            throw new InvalidConfigException(path + " must be a percentage 0..100, got " + value);
        }
        return value;
    }

    /** HyperPod's form: the {@code profile} preset, then each explicit weight over it. */
    private static Weights weights(String at, Scheduler s) throws InvalidConfigException {
        Weights weights = Weights.forProfile(s.profile());
        if (weights == null) {
            throw new InvalidConfigException(at + ".profile must be one of " + String.join(", ", Weights.PROFILES)
                    + "; got '" + s.profile() + "'");
        }
        if (s.weights() != null) {
            for (Map.Entry<String, Integer> w : s.weights().entrySet()) {
                String path = at + ".weights." + w.getKey();
                if (!Weights.NAMES.contains(w.getKey())) {
                    throw new InvalidConfigException(path + (GlobalWeights.NAMES.contains(w.getKey())
                            ? " is a weight for a pool of clusters and providers (spec.global); a pool of pods takes "
                            : " is not a known weight (") + String.join(", ", Weights.NAMES)
                            + (GlobalWeights.NAMES.contains(w.getKey()) ? "" : ")"));
                }
                if (w.getValue() == null || w.getValue() < 0) {
                    throw new InvalidConfigException(path + " must be a non-negative integer");
                }
                if (w.getValue() > MAX_WEIGHT) {
                    throw new InvalidConfigException(path + " must be at most " + MAX_WEIGHT + ", got " + w.getValue());
                }
                weights = weights.with(w.getKey(), w.getValue());
            }
        }
        return weights;
    }

    /**
     * The weights of a global tier's pool (its endpoints are clusters and providers): {@link GlobalWeights#DEFAULT}, then
     * each explicit weight over it. A pod pool's weights and {@code profile} presets do not apply to it.
     */
    private static GlobalWeights globalWeights(String at, Scheduler s) throws InvalidConfigException {
        if (s.profile() != null) {
            throw new InvalidConfigException(at + ".profile selects weights for a pool of pods (" + String.join(", ",
                    Weights.PROFILES) + "); a pool of clusters and providers takes its weights alone");
        }
        GlobalWeights weights = GlobalWeights.DEFAULT;
        if (s.weights() != null) {
            for (Map.Entry<String, Integer> w : s.weights().entrySet()) {
                String path = at + ".weights." + w.getKey();
                if (!GlobalWeights.NAMES.contains(w.getKey())) {
                    throw new InvalidConfigException(path + (Weights.NAMES.contains(w.getKey())
                            ? " is a weight for a pool of pods; a pool of clusters and providers takes "
                            : " is not a known weight (") + String.join(", ", GlobalWeights.NAMES)
                            + (Weights.NAMES.contains(w.getKey()) ? "" : ")"));
                }
                if (w.getValue() == null || w.getValue() < 0) {
                    throw new InvalidConfigException(path + " must be a non-negative integer");
                }
                if (w.getValue() > MAX_WEIGHT) {
                    throw new InvalidConfigException(path + " must be at most " + MAX_WEIGHT + ", got " + w.getValue());
                }
                weights = weights.with(w.getKey(), w.getValue());
            }
        }
        return weights;
    }

    /** The scheduler's plugin catalog, found once (see {@link PluginCatalog}). */
    private static PluginCatalog catalog() {
        return InstalledCatalog.INSTANCE;
    }

    private static final class InstalledCatalog {
        static final PluginCatalog INSTANCE = ServiceLoader
                .load(PluginCatalog.class, PluginCatalog.class.getClassLoader())
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("no " + PluginCatalog.class.getName()
                        + " service on the classpath: the scheduling plugins are missing"));
    }

    /** The engines the metrics code reads, found once (see {@link EngineCatalog}). */
    private static final class InstalledEngines {
        static final EngineCatalog INSTANCE = ServiceLoader
                .load(EngineCatalog.class, EngineCatalog.class.getClassLoader())
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("no " + EngineCatalog.class.getName()
                        + " service on the classpath: the engine dialects are missing"));
    }

    static String required(String value, String path) throws InvalidConfigException {
        if (value == null || value.isBlank()) {
            throw new InvalidConfigException(path + " is required");
        }
        return value.trim();
    }

    /** A positive duration of at most {@link #MAX_DURATION}; {@code fallback} when unset. */
    static Duration duration(String text, String path, Duration fallback) throws InvalidConfigException {
        return duration(text, path, fallback, null, MAX_DURATION);
    }

    /** A positive duration within {@code min} (null: any positive) and {@code max}; {@code fallback} when unset. */
    static Duration duration(String text, String path, Duration fallback, Duration min, Duration max)
            throws InvalidConfigException {
        if (text == null) {
            return fallback;
        }
        Duration d;
        try {
            d = Durations.parse(text);
        } catch (IllegalArgumentException e) {
            throw new InvalidConfigException(path + " " + e.getMessage());
        } catch (ArithmeticException e) { // more nanoseconds than a long holds
            d = null;
        }
        if (d != null && (d.isZero() || d.isNegative())) {
            throw new InvalidConfigException(path + " must be positive, got '" + text + "'");
        }
        if (d == null || d.compareTo(max) > 0 || (min != null && d.compareTo(min) < 0)) {
            throw new InvalidConfigException(path + " must be " + (min == null ? "at most " + bound(max)
                    : bound(min) + ".." + bound(max)) + ", got '" + text + "'");
        }
        return d;
    }

    private static String bound(Duration d) {
        return d.toMillis() % 3_600_000 == 0 ? d.toHours() + "h" : Durations.format(d);
    }
}
